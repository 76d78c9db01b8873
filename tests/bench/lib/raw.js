/**
 * Bare XML-RPC over http: a request body signed for the emulator, and one POST returning the raw
 * answer. For sizes of answers and for load generation where no client may stand in between.
 */
"use strict";
const http = require("http");
const path = require("path");
const Serializer = require("xmlrpc/lib/serializer");
const { authString, currentDate } = require(path.resolve(__dirname, "../../../provider/dist/api/auth"));

/** The methodCall document of `method` (`group.name`) with the three auth parameters first. */
function callBody(emu, method, params = []) {
  const date = currentDate();
  return Serializer.serializeMethodCall(method, [
    emu.apiUserId,
    authString(date, emu.apiKey, method.split(".")[1]),
    date,
    ...params,
  ]);
}

/** POSTs `body` to `/xmlrpc/<group>`; resolves with the answer's bytes. */
function post(emu, group, body, agent = false) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: emu.port,
        path: `/xmlrpc/${group}`,
        method: "POST",
        agent,
        headers: { "Content-Type": "text/xml", "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks)));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

module.exports = { callBody, post };
