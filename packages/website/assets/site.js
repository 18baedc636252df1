// The website's one script, a progressive enhancement: every page works without it (forms submit,
// filters are links, the route is an SVG drawing). With it: the map (Leaflet) replaces the SVG,
// place fields suggest towns as one types, and on a phone the filters open from a button.
// Leaflet is loaded when the map comes near the screen: a phone that never scrolls to it neither
// downloads nor runs it.
"use strict"
;(function () {
  // The map: its data is the page's `#map-data` JSON (the road, the stops and their labels).
  function showMap() {
    var data = document.getElementById("map-data")
    var box = document.getElementById("map")
    if (data === null || box === null) return
    // The box takes the drawing's place at once, so that nothing moves when the map is drawn.
    var fallback = document.querySelector(".route-fallback")
    box.hidden = false
    if (fallback !== null) fallback.hidden = true
    function load() {
      var script = document.createElement("script")
      script.src = box.getAttribute("data-leaflet")
      script.onload = function () { draw(JSON.parse(data.textContent)) }
      // Without Leaflet, the drawing again.
      script.onerror = function () {
        box.hidden = true
        if (fallback !== null) fallback.hidden = false
      }
      document.head.appendChild(script)
    }
    if (typeof IntersectionObserver === "undefined") return load()
    var seen = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting })) return
      seen.disconnect()
      load()
    }, { rootMargin: "200px" })
    seen.observe(box)
  }

  // Drawn in three short tasks (view, road and stops, then tiles) rather than one long one, so
  // that a slow phone stays responsive while the map is built.
  function draw(d) {
    var box = document.getElementById("map")
    var L = window.L
    var map = L.map(box, { scrollWheelZoom: false, attributionControl: true })
    map.attributionControl.setPrefix(false)
    var bounds = L.latLngBounds([])
    d.road.concat(d.part).forEach(function (p) { bounds.extend(p) })
    d.stops.forEach(function (s) { bounds.extend([s.lat, s.lon]) })
    // Room around the points for the labels, which are centred on them.
    var side = Math.min(120, box.clientWidth / 4)
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [side, 50], maxZoom: 11 })
    else map.setView([48, 10], 4)
    setTimeout(function () {
      if (d.road.length > 1) L.polyline(d.road, { color: "#7b8794", weight: 4, opacity: 0.9, className: "road" }).addTo(map)
      if (d.part.length > 1) L.polyline(d.part, { color: "#0b5cad", weight: 6, className: "part" }).addTo(map)
      var labelled = []
      // This passenger's pickup and drop-off (or the two places searched) are labelled whatever
      // else is hidden, and can be a few pixels apart on a phone: the northern one's label goes
      // above its point and the other's below, which keeps the two apart at any zoom (north stays up).
      var ends = d.stops.filter(function (s) { return s.role !== "stop" })
      var north = ends.length === 2 ? (ends[1].lat > ends[0].lat ? ends[1] : ends[0]) : null
      d.stops.forEach(function (s, k) {
        var mine = s.role !== "stop"
        // The others above and below their points in turn, in road order: neighbours' labels stay apart.
        var above = north !== null && mine ? s === north : k % 2 === 0
        var marker = L.circleMarker([s.lat, s.lon], {
          radius: mine ? 8 : 5,
          color: "#fff",
          weight: 2,
          fillColor: mine ? "#0b5cad" : "#52606d",
          fillOpacity: 1,
          className: "stop stop-" + s.role
        })
          .bindTooltip(s.label, { permanent: true, direction: above ? "top" : "bottom", offset: [0, above ? -8 : 8], className: "label label-" + s.role })
          .addTo(map)
        labelled.push({ marker: marker, mine: mine })
      })
      // On a narrow screen two towns close together (Neumarkt, Hof) write their labels over each
      // other: a stop-over's label that would cover one already shown is hidden until a zoom
      // sets them apart; this passenger's pickup and drop-off (and the places searched) always show.
      function declutter() {
        var shown = []
        labelled.filter(function (l) { return l.mine }).concat(labelled.filter(function (l) { return !l.mine })).forEach(function (l) {
          var el = l.marker.getTooltip() && l.marker.getTooltip().getElement()
          if (!el) return
          el.style.visibility = ""
          var r = el.getBoundingClientRect()
          var covers = shown.some(function (o) { return r.left < o.right && r.right > o.left && r.top < o.bottom && r.bottom > o.top })
          if (covers && !l.mine) el.style.visibility = "hidden"
          else shown.push(r)
        })
      }
      declutter()
      map.on("zoomend resize", function () { setTimeout(declutter, 0) })
      setTimeout(function () {
        // Tiles of the next zoom on high-density screens, so that the map is as sharp as the text.
        L.tileLayer(d.tiles.url, { attribution: d.tiles.attribution, maxZoom: 18, detectRetina: true }).addTo(map)
      }, 0)
    }, 0)
  }

  // Place fields: a list of towns (name, country) under the field, from `/places/suggest`.
  function suggest(input) {
    var list = document.getElementById(input.getAttribute("aria-controls"))
    var locale = input.getAttribute("data-locale")
    var timer = 0
    var asked = ""
    var active = -1
    var items = []
    function close() {
      // An answer still on its way is dropped: a list closed stays closed until one types again.
      clearTimeout(timer)
      asked = ""
      list.hidden = true
      list.innerHTML = ""
      input.setAttribute("aria-expanded", "false")
      input.removeAttribute("aria-activedescendant")
      active = -1
      items = []
    }
    // The town picked rides in a hidden field beside the name (its id: namesakes read alike).
    function picked() {
      var field = input.form && input.form.elements[input.getAttribute("data-pick")]
      if (!field && input.form) {
        field = document.createElement("input")
        field.type = "hidden"
        field.name = input.getAttribute("data-pick")
        input.parentNode.appendChild(field)
      }
      return field
    }
    function pick(k) {
      input.value = items[k].value
      picked().value = String(items[k].id)
      close()
    }
    function highlight(k) {
      active = k
      Array.prototype.forEach.call(list.children, function (li, j) { li.setAttribute("aria-selected", j === k ? "true" : "false") })
      if (k >= 0) input.setAttribute("aria-activedescendant", list.children[k].id)
    }
    function show(places) {
      list.innerHTML = ""
      items = places
      places.forEach(function (p, k) {
        var li = document.createElement("li")
        li.id = list.id + "-" + k
        li.setAttribute("role", "option")
        li.setAttribute("aria-selected", "false")
        li.textContent = p.label
        li.addEventListener("mousedown", function (e) {
          e.preventDefault()
          pick(k)
        })
        list.appendChild(li)
      })
      list.hidden = places.length === 0
      input.setAttribute("aria-expanded", places.length === 0 ? "false" : "true")
      active = -1
    }
    input.addEventListener("input", function () {
      // Edited: no longer the town picked.
      var field = input.form && input.form.elements[input.getAttribute("data-pick")]
      if (field) field.value = ""
      clearTimeout(timer)
      var q = input.value.trim()
      if (q.length < 2) return close()
      timer = setTimeout(function () {
        asked = q
        fetch("/places/suggest?q=" + encodeURIComponent(q) + "&locale=" + encodeURIComponent(locale), { headers: { accept: "application/json" } })
          .then(function (r) { return r.ok ? r.json() : { places: [] } })
          .then(function (body) { if (asked === q && input.value.trim() === q) show(body.places) })
          .catch(close)
      }, 120)
    })
    input.addEventListener("keydown", function (e) {
      if (list.hidden) return
      if (e.key === "ArrowDown") highlight(Math.min(items.length - 1, active + 1))
      else if (e.key === "ArrowUp") highlight(Math.max(0, active - 1))
      else if (e.key === "Enter" && active >= 0) pick(active)
      else if (e.key === "Escape") close()
      else return
      e.preventDefault()
    })
    input.addEventListener("blur", function () { setTimeout(close, 100) })
  }

  // On a phone the filters sit behind a button above the results (without the script, the
  // button is a link to them).
  function filtersButton() {
    var button = document.querySelector(".filters-button")
    var panel = document.getElementById("filters")
    if (button === null || panel === null) return
    button.setAttribute("role", "button")
    button.setAttribute("aria-expanded", "false")
    button.addEventListener("click", function (e) {
      e.preventDefault()
      var open = !panel.classList.contains("open")
      panel.classList.toggle("open", open)
      button.setAttribute("aria-expanded", open ? "true" : "false")
      if (open) panel.focus()
    })
  }

  // The search form: a blank field is left out of the address (the server reads it as not set
  // anyway), and a bound's field may not go below the other bound (he > hb, pmax > pmin).
  function searchForm(form) {
    form.addEventListener("submit", function () {
      var blank = Array.prototype.filter.call(form.elements, function (e) { return e.name && !e.disabled && e.value === "" })
      // Disabled fields are not sent; they are enabled again once the form's data is taken.
      blank.forEach(function (e) { e.disabled = true })
      setTimeout(function () { blank.forEach(function (e) { e.disabled = false }) }, 0)
    })
    function bound(low, high) {
      var a = form.elements[low]
      var b = form.elements[high]
      if (!a || !b) return
      var floor = b.getAttribute("min")
      function update() { b.min = a.value === "" ? floor : String(Math.max(Number(floor), Number(a.value) + 1)) }
      a.addEventListener("input", update)
      update()
    }
    bound("hb", "he")
    bound("pmin", "pmax")
  }

  function start() {
    showMap()
    Array.prototype.forEach.call(document.querySelectorAll("form[role=search]"), searchForm)
    Array.prototype.forEach.call(document.querySelectorAll("input[data-suggest]"), suggest)
    filtersButton()
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
  else start()
})()
