import assert from "node:assert/strict";
import { chips, chipsOfOutput, privateHost, publicPage, sourcesIn } from "../../../src/protocol/sources";

describe("protocol: source chips, one rule for the host and the panel", () => {
  it("makes one chip a site, its first page, six at most, site in lower case, title or else the site", () => {
    const sources = [
      { title: "Docs", url: "https://WWW.Example.com/docs" },
      { title: "Again", url: "https://example.com/other" },
      { title: " ", url: "https://news.site.org/a" },
      { title: "bad", url: "not a url" },
      ...["a", "b", "c", "d", "e", "f"].map((s) => ({ title: s, url: `https://${s}.dev/` })),
    ];
    const c = chips(sources);
    assert.deepEqual(c.slice(0, 2), [
      { letter: "E", site: "example.com", title: "Docs", url: "https://www.example.com/docs" },
      { letter: "N", site: "news.site.org", title: "news.site.org", url: "https://news.site.org/a" },
    ]);
    assert.deepEqual(
      c.map((x) => x.site),
      ["example.com", "news.site.org", "a.dev", "b.dev", "c.dev", "d.dev"],
    );
  });

  it("never makes a chip of a page that is not a public http(s) page", () => {
    const hostile = [
      "javascript:alert(1)",
      "JavaScript:fetch('//x.example')",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "vscode://settings/tandem",
      "http://127.0.0.1:8080/admin",
      "http://0x7f.1/",
      "http://2130706433/",
      "http://localhost:3000/",
      "http://app.localhost/",
      "http://printer.local/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.5/",
      "http://192.168.1.1/",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[fd00::1]/",
      "http://intranet/wiki",
      "https://user:pass@example.com/",
    ];
    assert.deepEqual(chips(hostile.map((url) => ({ title: "Click me", url }))), []);
    assert.deepEqual(
      hostile.filter((url) => publicPage(url)),
      [],
    );
    assert.equal(publicPage("https://8.8.8.8/")?.hostname, "8.8.8.8");
    assert.equal(privateHost("example.com"), false);
    assert.equal(privateHost("[2001:4860:4860::8888]"), false);
  });

  it("reads sources only where a tool declared them: a JSON object's `sources` of {title, url}", () => {
    const declared = JSON.stringify({
      results: "see https://plain.example/x",
      sources: [
        { title: "A", url: "https://a.example/1" },
        { title: 1, url: "https://b.example" },
        "https://c.example",
      ],
    });
    assert.deepEqual(sourcesIn(declared), [{ title: "A", url: "https://a.example/1" }]);
    // A URL in plain output, or anywhere else in a JSON answer, is text a page or a file wrote: no source.
    assert.deepEqual(sourcesIn("see https://plain.example/x"), []);
    assert.deepEqual(sourcesIn(JSON.stringify([{ title: "A", url: "https://a.example/1" }])), []);
    assert.deepEqual(sourcesIn(JSON.stringify({ results: [{ url: "https://a.example/1" }] })), []);
    assert.deepEqual(sourcesIn("{not json"), []);
    assert.deepEqual(
      chipsOfOutput(declared).map((c) => c.site),
      ["a.example"],
    );
  });
});
