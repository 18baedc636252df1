// The part of negotiator 1.x this package uses (its DefinitelyTyped types describe 0.6, without
// the `preferred` option that breaks ties between equally accepted codings).
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>> })
    encoding(available: ReadonlyArray<string>, options?: { readonly preferred?: ReadonlyArray<string> }): string | undefined
  }
}
