/** Texts users of one language write: first names, trip comments, questions and answers, places. */
export interface LanguagePack {
  readonly firstNames: ReadonlyArray<string>
  readonly comments: ReadonlyArray<string>
  readonly questions: ReadonlyArray<readonly [question: string, answer: string]>
  /** Address templates; `{city}` is replaced by the waypoint's town as this language writes it (`namingLocale`). */
  readonly addresses: ReadonlyArray<string>
}

export const LANGUAGE_PACKS = {
  fr: {
    firstNames: ["Marie", "Julien", "Camille", "Thomas", "Léa", "Nicolas", "Chloé", "Antoine", "Manon", "Hugo", "Élodie", "François"],
    comments: [
      "Je pars du centre-ville, rendez-vous devant la gare.",
      "Trajet régulier, musique douce et bonne humeur. Petits bagages uniquement svp.",
      "Non-fumeur, animaux acceptés s'ils voyagent en caisse.",
      "Départ à l'heure, merci d'être ponctuel !"
    ],
    questions: [
      ["Bonjour, est-il possible de vous retrouver à la sortie du périphérique ?", "Oui, pas de souci, prévenez-moi la veille."],
      ["Puis-je prendre un vélo pliant ?", "Oui, il y a de la place dans le coffre."],
      ["Vous passez par l'autoroute ?", "Oui, tout le trajet."]
    ],
    addresses: ["Gare de {city}", "Place de la Mairie, {city}", "Centre commercial, {city}", "Hôtel de Ville, {city}"]
  },
  de: {
    firstNames: ["Lukas", "Anna", "Jonas", "Lea", "Felix", "Sophie", "Maximilian", "Laura", "Paul", "Jana", "Jürgen", "Sabine"],
    comments: [
      "Abfahrt pünktlich am Hauptbahnhof. Bitte nur kleines Gepäck.",
      "Nichtraucher, ruhige Fahrt, Klimaanlage vorhanden.",
      "Ich fahre die Strecke jede Woche, Zwischenstopps nach Absprache."
    ],
    questions: [
      ["Hallo, kann ich am Parkplatz an der Autobahnauffahrt zusteigen?", "Ja, gerne. Schreib mir kurz vorher."],
      ["Ist Platz für einen großen Koffer?", "Ein Koffer passt, mehr leider nicht."]
    ],
    addresses: ["Hauptbahnhof, {city}", "Marktplatz, {city}", "Busbahnhof {city}", "Rathaus, {city}"]
  },
  es: {
    firstNames: ["Lucía", "Javier", "María", "Carlos", "Sofía", "Pablo", "Elena", "Alejandro", "Carmen", "Diego"],
    comments: [
      "Salgo puntual desde la estación de autobuses.",
      "Coche cómodo, sin fumar. Equipaje mediano como máximo.",
      "Viaje tranquilo, se admiten mascotas pequeñas."
    ],
    questions: [
      ["¿Podrías recogerme en la gasolinera de la salida?", "Sí, sin problema."],
      ["¿Hay sitio para una maleta grande?", "Sí, el maletero está vacío."]
    ],
    addresses: ["Estación de autobuses, {city}", "Plaza Mayor, {city}", "Estación de tren de {city}"]
  },
  it: {
    firstNames: ["Giulia", "Marco", "Francesca", "Luca", "Chiara", "Alessandro", "Sara", "Matteo", "Valentina", "Giorgio"],
    comments: [
      "Partenza puntuale dalla stazione centrale.",
      "Auto non fumatori, bagaglio medio per persona.",
      "Viaggio tranquillo, possibili soste in autogrill."
    ],
    questions: [
      ["Ciao, posso salire al casello dell'autostrada?", "Certo, scrivimi prima di partire."],
      ["C'è posto per una bici pieghevole?", "Sì, nel bagagliaio."]
    ],
    addresses: ["Stazione Centrale, {city}", "Piazza del Duomo, {city}", "Piazza della Repubblica, {city}"]
  },
  en: {
    firstNames: ["Oliver", "Amelia", "George", "Isla", "Harry", "Emily", "Jack", "Sophie", "Charlie", "Grace"],
    comments: [
      "Leaving from the train station car park, please be on time.",
      "Non-smoking car, one medium bag per passenger.",
      "Happy to stop at services on the way if needed."
    ],
    questions: [
      ["Hi, could you pick me up near the motorway junction?", "Yes, no problem, message me the day before."],
      ["Is there room for a large suitcase?", "One large suitcase is fine."]
    ],
    addresses: ["{city} railway station", "High Street, {city}", "Park and Ride, {city}"]
  },
  hi: {
    firstNames: ["Aarav", "Priya", "Rohan", "Ananya", "Vikram", "Neha", "Arjun", "Kavya", "Rahul", "Pooja"],
    comments: ["Leaving from the bus stand, AC car, no smoking.", "Will stop for chai on the highway.", "Small luggage only please."],
    questions: [["Can you pick me up at the toll plaza?", "Yes, call me when you reach."], ["Is the car AC?", "Yes."]],
    addresses: ["{city} bus stand", "{city} railway station", "MG Road, {city}"]
  },
  pt: {
    firstNames: ["João", "Ana", "Pedro", "Mariana", "Tiago", "Beatriz", "Lucas", "Gabriela", "Rafael", "Inês"],
    comments: ["Saída pontual da rodoviária.", "Carro de não fumadores, bagagem média.", "Viagem tranquila, paragem a meio do caminho."],
    questions: [["Podes apanhar-me na saída da autoestrada?", "Sim, sem problema."], ["Há espaço para uma mala grande?", "Há sim."]],
    addresses: ["Rodoviária de {city}", "Praça Central, {city}", "Estação de {city}"]
  },
  nl: {
    firstNames: ["Daan", "Emma", "Sem", "Julia", "Lucas", "Sanne", "Bram", "Lotte", "Thijs", "Eva"],
    comments: ["Vertrek stipt vanaf het station.", "Niet roken in de auto, kleine bagage graag.", "Rustige rit, stop onderweg mogelijk."],
    questions: [["Kan ik bij de carpoolplaats instappen?", "Ja hoor, stuur me even een bericht."], ["Past er een grote koffer in?", "Ja, dat gaat."]],
    addresses: ["Station {city}", "Carpoolplaats {city}", "Markt, {city}"]
  },
  pl: {
    firstNames: ["Jakub", "Zuzanna", "Kacper", "Julia", "Szymon", "Maja", "Michał", "Aleksandra", "Piotr", "Katarzyna"],
    comments: ["Wyjazd punktualnie spod dworca.", "Samochód dla niepalących, mały bagaż.", "Spokojna jazda, postój na stacji w połowie drogi."],
    questions: [["Czy mogę wsiąść przy zjeździe z autostrady?", "Tak, napisz wcześniej."], ["Zmieści się duża walizka?", "Tak, bagażnik jest pusty."]],
    addresses: ["Dworzec PKP, {city}", "Rynek, {city}", "Dworzec autobusowy, {city}"]
  },
  cs: {
    firstNames: ["Jan", "Tereza", "Petr", "Eliška", "Tomáš", "Lucie", "Martin", "Kateřina", "Jakub", "Veronika"],
    comments: ["Odjezd přesně od nádraží.", "Nekuřácké auto, malá zavazadla.", "Klidná jízda, zastávka na pumpě."],
    questions: [["Můžu přistoupit u dálnice?", "Ano, napište mi předem."], ["Vejde se velký kufr?", "Ano."]],
    addresses: ["Hlavní nádraží, {city}", "Náměstí, {city}", "Autobusové nádraží, {city}"]
  },
  sk: {
    firstNames: ["Marek", "Zuzana", "Peter", "Lucia", "Martin", "Katarína", "Tomáš", "Simona", "Michal", "Jana"],
    comments: ["Odchod presne zo stanice.", "Nefajčiarske auto, malá batožina.", "Pokojná jazda, zastávka na pumpe."],
    questions: [["Môžem nastúpiť pri diaľnici?", "Áno, napíšte mi vopred."], ["Zmestí sa veľký kufor?", "Áno."]],
    addresses: ["Železničná stanica, {city}", "Námestie, {city}", "Autobusová stanica, {city}"]
  },
  hu: {
    firstNames: ["Bence", "Anna", "Máté", "Zsófia", "Dávid", "Eszter", "Levente", "Réka", "Ádám", "Katalin"],
    comments: ["Indulás pontosan a pályaudvarról.", "Nemdohányzó autó, kis csomag.", "Nyugodt út, megállás a benzinkútnál."],
    questions: [["Fel tudsz venni az autópálya-lehajtónál?", "Igen, írj előtte."], ["Befér egy nagy bőrönd?", "Igen."]],
    addresses: ["Vasútállomás, {city}", "Fő tér, {city}", "Buszpályaudvar, {city}"]
  },
  ro: {
    firstNames: ["Andrei", "Ioana", "Mihai", "Elena", "Alexandru", "Maria", "Ștefan", "Ana", "Cristian", "Gabriela"],
    comments: ["Plecare punctuală din fața gării.", "Mașină de nefumători, bagaj mic.", "Drum liniștit, oprire la benzinărie."],
    questions: [["Mă poți lua de la ieșirea din autostradă?", "Da, scrie-mi înainte."], ["Încape un bagaj mare?", "Da."]],
    addresses: ["Gara {city}", "Piața Unirii, {city}", "Autogara {city}"]
  },
  sr: {
    firstNames: ["Luka", "Milica", "Stefan", "Jelena", "Nikola", "Ana", "Marko", "Ivana", "Filip", "Marija"],
    comments: ["Polazak tačno sa autobuske stanice.", "Nepušački automobil, mali prtljag.", "Mirna vožnja, pauza na pumpi."],
    questions: [["Možeš li me pokupiti kod naplatne rampe?", "Može, javi se ranije."], ["Ima li mesta za veliki kofer?", "Ima."]],
    addresses: ["Autobuska stanica, {city}", "Glavni trg, {city}", "Železnička stanica, {city}"]
  },
  hr: {
    firstNames: ["Luka", "Ana", "Ivan", "Petra", "Marko", "Lucija", "Josip", "Marija", "Filip", "Ivana"],
    comments: ["Polazak točno s autobusnog kolodvora.", "Nepušački automobil, mala prtljaga.", "Mirna vožnja, pauza na benzinskoj."],
    questions: [["Možeš li me pokupiti kod naplatnih kućica?", "Može, javi se prije."], ["Ima li mjesta za veliki kofer?", "Ima."]],
    addresses: ["Autobusni kolodvor, {city}", "Glavni trg, {city}", "Željeznički kolodvor, {city}"]
  },
  ru: {
    firstNames: ["Александр", "Анна", "Дмитрий", "Мария", "Сергей", "Екатерина", "Иван", "Ольга", "Михаил", "Наталья"],
    comments: ["Выезд точно по времени от вокзала.", "В машине не курят, багаж небольшой.", "Спокойная езда, остановка на заправке."],
    questions: [["Можно сесть на выезде из города?", "Да, напишите заранее."], ["Поместится большой чемодан?", "Да, багажник свободен."]],
    addresses: ["Ж/д вокзал, {city}", "Автовокзал, {city}", "Центральная площадь, {city}"]
  },
  uk: {
    firstNames: ["Олександр", "Олена", "Андрій", "Наталія", "Іван", "Юлія", "Дмитро", "Ірина", "Максим", "Тетяна"],
    comments: ["Виїзд вчасно від вокзалу.", "У машині не палять, невеликий багаж.", "Спокійна їзда, зупинка на заправці."],
    questions: [["Можна сісти на виїзді з міста?", "Так, напишіть заздалегідь."], ["Чи поміститься велика валіза?", "Так."]],
    addresses: ["Залізничний вокзал, {city}", "Автовокзал, {city}", "Центральна площа, {city}"]
  },
  tr: {
    firstNames: ["Mehmet", "Ayşe", "Mustafa", "Fatma", "Emre", "Zeynep", "Burak", "Elif", "Can", "Merve"],
    comments: ["Otogardan tam zamanında hareket.", "Sigara içilmeyen araç, küçük bagaj.", "Sakin yolculuk, yolda mola verilir."],
    questions: [["Otoyol çıkışında binebilir miyim?", "Evet, önceden yazın."], ["Büyük bavul sığar mı?", "Evet."]],
    addresses: ["Otogar, {city}", "Cumhuriyet Meydanı, {city}", "Tren garı, {city}"]
  }
} as const satisfies Readonly<Record<string, LanguagePack>>

export type Language = keyof typeof LANGUAGE_PACKS
