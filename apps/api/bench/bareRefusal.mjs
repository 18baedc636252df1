// The floor of the overload benchmark: a bare node:http server answering every request with one
// constant 503, the API's refusal body and headers, without reading anything. What its 503s take
// is what the machine and the load tool allow any server at that concurrency. Prints its port.
import { createServer } from "node:http"

const body = Buffer.from(
  JSON.stringify({
    error: {
      code: "503",
      "developper-message": "service.overloaded",
      message: "The service is overloaded; retry later",
      "support-link": "https://www.tripsearch.example/developers/errors#service.overloaded"
    }
  })
)
const server = createServer((_req, res) => {
  res.writeHead(503, {
    "Retry-After": "1",
    "Cache-Control": "no-store",
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": body.byteLength
  })
  res.end(body)
})
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`))
