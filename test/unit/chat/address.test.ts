import assert from "node:assert/strict";
import {
  AddressError,
  checkPublic,
  guardedLookup,
  isPrivate,
  kindOf,
  parseIPv4,
  type Lookup,
} from "../../../src/chat/net/address";

/** A resolver that knows a few names, as a DNS server would answer them. */
const names: Record<string, string[]> = {
  "public.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "rebind.example.com": ["93.184.215.14", "127.0.0.1"],
  "inside.example.com": ["10.1.2.3"],
  "mapped.example.com": ["::ffff:169.254.169.254"],
  "cgnat.example.com": ["100.100.1.1"],
};
const lookup: Lookup = async (host) => {
  const found = names[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

async function refusal(url: string, allowPrivate = false): Promise<string> {
  try {
    await checkPublic(url, { lookup, allowPrivate });
  } catch (error) {
    assert.ok(error instanceof AddressError, `an AddressError for ${url}`);
    return error.message;
  }
  return "";
}

describe("isPrivate", () => {
  const privates: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["100.127.255.255", "shared (CGNAT)"],
    ["169.254.1.1", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.10", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["2130706433", "loopback"],
    ["0x7f.1", "loopback"],
    ["0x7f000001", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["017700000001", "loopback"],
    ["127.1", "loopback"],
    ["10.1", "private"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback"],
    ["::FFFF:A9FE:A9FE", "IPv4-mapped cloud metadata"],
    ["::ffff:8.8.8.8", "IPv4-mapped"],
    ["::ffff:0:10.0.0.1", "IPv4-translated private"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["64:ff9b::10.0.0.1", "NAT64 of a private address"],
    ["64:ff9b::7f00:1", "NAT64 of a loopback address"],
    ["64:ff9b:1::1", "local NAT64"],
    ["2002:c0a8:0101::1", "6to4 of a private address"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2001::1", "Teredo"],
    ["100::1", "reserved"],
    ["not-an-ip", "not an address"],
    ["1.2.3.256", "not an address"],
    ["1::2::3", "not an address"],
    ["1:2:3:4:5:6:7:8:9", "not an address"],
    ["", "not an address"],
  ];
  for (const [ip, kind] of privates) {
    it(`refuses ${ip || "(empty)"} as ${kind}`, () => {
      assert.equal(kindOf(ip), kind);
      assert.equal(isPrivate(ip), true);
    });
  }

  const publics = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.1.1",
    "192.169.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "64:ff9b::8.8.8.8",
    "2002:0808:0808::1",
  ];
  for (const ip of publics) {
    it(`lets ${ip} by as public`, () => {
      assert.equal(kindOf(ip), undefined);
      assert.equal(isPrivate(ip), false);
    });
  }

  it("reads IPv4 spellings the way URL parsers do", () => {
    assert.equal(parseIPv4("2130706433"), 0x7f000001);
    assert.equal(parseIPv4("0x7f.0.0.1"), 0x7f000001);
    assert.equal(parseIPv4("127.0.1"), 0x7f000001);
    assert.equal(parseIPv4("0300.0250.1.1"), 0xc0a80101);
    assert.equal(parseIPv4("4294967296"), null);
    assert.equal(parseIPv4("08.1.1.1"), null);
  });
});

describe("checkPublic", () => {
  const refused: [string, RegExp][] = [
    ["http://127.0.0.1:8080/mcp", /private address 127\.0\.0\.1 \(loopback\)/],
    ["http://localhost/mcp", /private address localhost \(loopback\)/],
    ["http://LOCALHOST./mcp", /localhost \(loopback\)/],
    ["http://api.localhost/", /loopback/],
    ["http://2130706433/", /127\.0\.0\.1 \(loopback\)/],
    ["http://0x7f.1/", /127\.0\.0\.1 \(loopback\)/],
    ["http://0177.0.0.1/", /127\.0\.0\.1 \(loopback\)/],
    ["http://%31%32%37.0.0.1/", /127\.0\.0\.1/],
    ["http://[::1]:3000/", /::1 \(loopback\)/],
    ["http://[::ffff:127.0.0.1]/", /IPv4-mapped loopback/],
    ["http://[::ffff:7f00:1]/", /IPv4-mapped loopback/],
    ["http://[64:ff9b::10.0.0.1]/", /NAT64 of a private address/],
    ["http://[fe80::1]/", /link-local/],
    ["http://[fd00::1]/", /unique-local/],
    ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 \(cloud metadata\)/],
    ["http://metadata.google.internal/computeMetadata/v1/", /metadata\.google\.internal \(cloud metadata\)/],
    ["http://metadata/", /cloud metadata/],
    ["http://printer.local/", /\(local\)/],
    ["http://intranet/", /intranet \(local\)/],
    ["http://0.0.0.0:3001/", /unspecified/],
    ["http://224.0.0.1/", /multicast/],
    ["http://255.255.255.255/", /broadcast/],
    ["http://inside.example.com/mcp", /10\.1\.2\.3 for inside\.example\.com \(private\)/],
    ["http://rebind.example.com/", /127\.0\.0\.1 for rebind\.example\.com \(loopback\)/],
    ["http://mapped.example.com/", /IPv4-mapped cloud metadata/],
    ["http://cgnat.example.com/", /CGNAT/],
  ];
  for (const [url, reason] of refused) {
    it(`refuses ${url}, naming the address and the setting`, async () => {
      const message = await refusal(url);
      assert.match(message, /^refused: /);
      assert.match(message, reason);
      assert.match(message, /tandem\.plugins\.allowPrivateAddresses/);
    });
  }

  const tricks: [string, RegExp][] = [
    ["ftp://public.example.com/", /ftp addresses are not allowed/],
    ["file:///etc/passwd", /file addresses are not allowed/],
    ["gopher://public.example.com/", /gopher/],
    ["javascript:alert(1)", /javascript addresses are not allowed/],
    ["http://public.example.com@127.0.0.1/", /user name or password/],
    ["http://user:pass@public.example.com/", /user name or password/],
    ["http://a@b@public.example.com/", /user name or password/],
    ["not a url", /is not a valid address/],
    ["http://[::1/", /is not a valid address/],
    ["http://unknown.example.com/", /could not resolve unknown\.example\.com: ENOTFOUND/],
  ];
  for (const [url, reason] of tricks) {
    it(`refuses ${url}`, async () => {
      assert.match(await refusal(url), reason);
    });
  }

  it("refuses a backslash trick that lands on loopback", async () => {
    assert.match(await refusal("http://127.0.0.1\\@public.example.com/"), /127\.0\.0\.1 \(loopback\)/);
  });

  it("lets a name by when all its addresses are public, and answers them", async () => {
    const checked = await checkPublic("https://public.example.com/mcp", { lookup });
    assert.equal(checked.url.hostname, "public.example.com");
    assert.deepEqual(checked.addresses, names["public.example.com"]);
  });

  it("lets a public address by number by without a lookup", async () => {
    const checked = await checkPublic("http://8.8.8.8/", {
      lookup: () => Promise.reject(new Error("no lookup for a number")),
    });
    assert.deepEqual(checked.addresses, ["8.8.8.8"]);
  });

  it("lets private addresses by when the setting allows them, but still checks scheme and user info", async () => {
    assert.equal(await refusal("http://127.0.0.1:3001/mcp", true), "");
    assert.equal(await refusal("http://inside.example.com/", true), "");
    assert.match(await refusal("ftp://127.0.0.1/", true), /ftp/);
    assert.match(await refusal("http://u:p@127.0.0.1/", true), /user name/);
  });

  it("names a different setting when asked", async () => {
    await assert.rejects(
      checkPublic("http://10.0.0.1/", { setting: "my.setting" }),
      /turn on the setting my\.setting/,
    );
  });
});

describe("guardedLookup", () => {
  function resolve(host: string, all: boolean, allowPrivate = false) {
    return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) => {
      guardedLookup({ lookup, allowPrivate })(host, { all }, (error, address) => done({ error, address }));
    });
  }

  it("refuses at connection time a name that now resolves inside", async () => {
    const { error } = await resolve("rebind.example.com", true);
    assert.equal(error?.code, "EPRIVATE");
    assert.match(error?.message ?? "", /127\.0\.0\.1 for rebind\.example\.com/);
  });

  it("answers all public addresses, or the first, as net.connect asks", async () => {
    const all = await resolve("public.example.com", true);
    assert.equal(all.error, null);
    assert.deepEqual(
      (all.address as { address: string }[]).map((a) => a.address),
      names["public.example.com"],
    );
    const one = await resolve("public.example.com", false);
    assert.equal(one.address, "93.184.215.14");
  });

  it("passes private addresses when allowed, and names that do not resolve fail", async () => {
    assert.equal((await resolve("inside.example.com", false, true)).address, "10.1.2.3");
    assert.equal((await resolve("unknown.example.com", false)).error?.code, "ENOTFOUND");
    assert.equal((await resolve("127.0.0.1", false)).error?.code, "EPRIVATE");
  });
});
