import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkPublic } from "../../../src/chat/net/address";
import { pinnedRequest } from "../../../src/chat/net/pinned";

describe("pinned requests over TLS", () => {
  let dir: string;
  let cert: Buffer;
  let server: https.Server;
  let port: number;
  const reached: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "tandem-tls-"));
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=site.example"],
        ...["-addext", "subjectAltName=DNS:site.example"],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
    cert = readFileSync(join(dir, "cert.pem"));
    server = https.createServer({ key: readFileSync(join(dir, "key.pem")), cert }, (request, response) =>
      response.end(`hello ${request.headers.host}`),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });

  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** GETs `address` pinned to the public address its lookup answered, routed to the local TLS server. */
  async function get(address: string): Promise<string> {
    const checked = await checkPublic(address, {
      lookup: async () => [{ address: "93.184.216.34", family: 4 }],
    });
    const connect = ({ host }: { host: string }) => {
      reached.push(host);
      return net.connect(port, "127.0.0.1");
    };
    return new Promise((resolve, reject) => {
      const request = pinnedRequest(checked, { connect, ca: cert }, (incoming) => {
        let text = "";
        incoming.on("data", (chunk: Buffer) => (text += chunk.toString()));
        incoming.on("end", () => resolve(text));
      });
      request.on("error", reject);
      request.end();
    });
  }

  it("connects to the checked address and checks the certificate against the name", async () => {
    reached.length = 0;
    assert.equal(await get("https://site.example/"), "hello site.example");
    assert.deepEqual(reached, ["93.184.216.34"]);
    await assert.rejects(get("https://other.example/"), { code: "ERR_TLS_CERT_ALTNAME_INVALID" });
  });
});
