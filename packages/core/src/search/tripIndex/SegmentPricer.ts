import { CURRENCIES, MINOR_DIGITS } from "../../model/Locale.js"
import { mulDivRound2, scaledRate } from "../../pricing/exactMath.js"
import type { MatchRequest } from "../MatchRequest.js"
import { NO_BOOKING } from "./TripColumns.js"

/**
 * A segment's `price.value` in the request's currency, in its minor units (docs/API.md, Prices): the net
 * sum of the legs converted from the trip's currency with exact integer arithmetic, plus the 15 %
 * commission where the locale shows prices with it and the trip can be booked. Conversion factors
 * are worked out once per request, per trip currency.
 */
export class SegmentPricer {
  private readonly toFactor: number
  private readonly fromFactor: ReadonlyArray<number>
  private readonly curIdx: number
  private readonly withMode: boolean
  /** Minor units per unit of the request's currency (the price facet counts whole units). */
  readonly unit: number

  constructor(req: Pick<MatchRequest, "currency" | "rates" | "priceMode">) {
    const cur = req.currency
    this.toFactor = scaledRate(req.rates[cur]) * 10 ** MINOR_DIGITS[cur]
    this.fromFactor = CURRENCIES.map((c) => scaledRate(req.rates[c]) * 10 ** MINOR_DIGITS[c])
    this.curIdx = CURRENCIES.indexOf(cur)
    this.withMode = req.priceMode === "with"
    this.unit = 10 ** MINOR_DIGITS[cur]
  }

  /** `net`: the legs' sum in minor units of the trip's currency (index `tripCurrency` of CURRENCIES). */
  priceOf(net: number, tripCurrency: number, bookingType: number): number {
    const converted = tripCurrency !== this.curIdx ? mulDivRound2(net, this.toFactor, this.fromFactor[tripCurrency]!) : net
    return this.withMode && bookingType !== NO_BOOKING ? converted + mulDivRound2(converted, 15, 100) : converted
  }
}
