import { type Exchange, type OpenApiContract, openApiContract } from "./openApiContract.js"

type Json = { [key: string]: any } // eslint-disable-line @typescript-eslint/no-explicit-any

/** An answer the OpenAPI document does not describe. */
export class ContractViolation extends Error {
  readonly problems: ReadonlyArray<string>
  constructor(problems: ReadonlyArray<string>) {
    super(`an answer the OpenAPI document does not describe:\n- ${problems.join("\n- ")}`)
    this.name = "ContractViolation"
    this.problems = problems
  }
}

// The servers the tests start listen on the loopback interface; nothing else is the service's.
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"])

const INSTALLED = Symbol.for("tripsearch.checkedFetch")
const CONTRACT_KEY = Symbol.for("tripsearch.openApiContract")

// One registry per process, whichever copy of this module a test file loaded.
const STUBBED_KEY = Symbol.for("tripsearch.stubbedUseCases")
const STUBBED: Set<string> = ((globalThis as { [STUBBED_KEY]?: Set<string> })[STUBBED_KEY] ??= new Set<string>())

/**
 * Marks the server at `base` as one whose use-cases a test replaced with stubs: its 200 bodies are
 * the stubs' placeholders, not the service's, and are not checked; its status codes, content
 * types, headers and error bodies still are. Returns the undo.
 */
export const stubbedUseCases = (base: string): (() => void) => {
  const origin = new URL(base).origin
  STUBBED.add(origin)
  return () => void STUBBED.delete(origin)
}

/**
 * `fetch` that checks every answer from a loopback server against the document
 * (`openApiContract`) and rejects with a `ContractViolation` when the document does not describe
 * it; the caller then gets the answer untouched (its body still unread).
 */
export const checkedFetch = (document: Json, fetchImpl: typeof fetch = globalThis.fetch): typeof fetch => {
  const contract = openApiContract(document)
  const checked = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetchImpl(input, init)
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (!LOOPBACK.has(url.hostname)) return response
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase()
    let body = ""
    if (method !== "HEAD" && response.body !== null) {
      try {
        body = await response.clone().text()
      } catch {
        // A body cut short (the test aborted it, the server closed): the caller meets the same
        // failure reading it, and there is no answer to check.
        return response
      }
    }
    const exchange: Exchange = {
      method,
      url: url.href,
      status: response.status,
      headers: response.headers,
      body,
      bodyUnchecked: response.status === 200 && STUBBED.has(url.origin)
    }
    const problems = contract.check(exchange)
    if (problems.length > 0) throw new ContractViolation(problems)
    return response
  }
  return checked as typeof fetch
}

/**
 * Replaces the global `fetch` with `checkedFetch` over `document`, once per process: a vitest
 * setup file calls it, so that every test that calls `fetch` has its answers checked without
 * asking for it.
 */
export const installCheckedFetch = (document: Json): void => {
  const current = globalThis.fetch as typeof fetch & { [INSTALLED]?: true }
  if (current[INSTALLED] === true) return
  ;(globalThis as { [CONTRACT_KEY]?: OpenApiContract })[CONTRACT_KEY] = openApiContract(document)
  const checked = Object.assign(checkedFetch(document, current), { [INSTALLED]: true as const })
  globalThis.fetch = checked
}

/** Node's `IncomingMessage.headers` as the `get` of a fetch `Headers` (a repeated header joined). */
export const nodeHeaders = (headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>): Exchange["headers"] => ({
  get: (name) => {
    const value = headers[name.toLowerCase()]
    return value === undefined ? null : typeof value === "string" ? value : value.join(", ")
  }
})

/**
 * Checks an answer a test received without `fetch` (node:http's client, for methods, targets or
 * headers `fetch` will not send) against the document `installCheckedFetch` was given; throws a
 * `ContractViolation` when the document does not describe it.
 */
export const checkAnswer = (exchange: Exchange): void => {
  const contract = (globalThis as { [CONTRACT_KEY]?: OpenApiContract })[CONTRACT_KEY]
  if (contract === undefined) throw new Error("checkAnswer: no OpenAPI document installed (installCheckedFetch, in the tests' setup file)")
  const origin = exchange.url.startsWith("http") ? new URL(exchange.url).origin : undefined
  const stubbed = exchange.status === 200 && origin !== undefined && STUBBED.has(origin)
  const problems = contract.check(stubbed ? { ...exchange, bodyUnchecked: true } : exchange)
  if (problems.length > 0) throw new ContractViolation(problems)
}
