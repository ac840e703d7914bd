/** The message union and user content parts: tagged-union errors exactly as pydantic gives them. */
import assert from "node:assert/strict";
import { outcome, PARTS, problems, valid, withMessages } from "./requests";

describe("execute: message conformance", () => {
  it("names an unknown role with union_tag_invalid and the expected tags", async () => {
    const out = await outcome(withMessages({ role: "robot", content: "hi" }));
    assert.equal(out.status, 422);
    assert.deepEqual(out.body, {
      detail: [
        {
          type: "union_tag_invalid",
          loc: ["body", "messages", 0],
          msg: "Input tag 'robot' found using 'role' does not match any of the expected tags: 'user', 'tool', 'agent', 'system', 'assistant'",
          input: { role: "robot", content: "hi" },
          ctx: {
            discriminator: "'role'",
            tag: "robot",
            expected_tags: "'user', 'tool', 'agent', 'system', 'assistant'",
          },
        },
      ],
    });
    assert.deepEqual(await problems(withMessages({ role: 5 })), [
      [["body", "messages", 0], "union_tag_invalid"],
    ]);
  });

  it("reports a message without a role as union_tag_not_found, and one that is not an object", async () => {
    const out = await outcome(withMessages({ content: "hi" }));
    assert.equal(out.status, 422);
    assert.deepEqual(out.body, {
      detail: [
        {
          type: "union_tag_not_found",
          loc: ["body", "messages", 0],
          msg: "Unable to extract tag using discriminator 'role'",
          input: { content: "hi" },
          ctx: { discriminator: "'role'" },
        },
      ],
    });
    assert.deepEqual(await problems(withMessages("hi")), [
      [["body", "messages", 0], "model_attributes_type"],
    ]);
    assert.deepEqual(await problems({ ...valid(), messages: {} }), [[["body", "messages"], "list_type"]]);
  });

  it("puts the role in the loc of a message's own problems", async () => {
    assert.deepEqual(
      await problems(
        withMessages(
          { role: "tool", name: 5 },
          { role: "agent", content: 5, tool_request: { name: "x" } },
          { role: "system" },
          { role: "assistant", content: null },
          { role: "user" },
        ),
      ),
      [
        [["body", "messages", 0, "tool", "name"], "string_type"],
        [["body", "messages", 0, "tool", "content"], "missing"],
        [["body", "messages", 1, "agent", "content"], "string_type"],
        [["body", "messages", 1, "agent", "tool_request", "arguments"], "missing"],
        [["body", "messages", 2, "system", "content"], "missing"],
        [["body", "messages", 3, "assistant", "content"], "string_type"],
        [["body", "messages", 4, "user", "content"], "missing"],
      ],
    );
  });

  it("reports a user content that is neither text nor parts under each member's name", async () => {
    const out = await outcome(withMessages({ role: "user", content: 5 }));
    assert.equal(out.status, 422);
    assert.deepEqual(out.body, {
      detail: [
        {
          type: "string_type",
          loc: ["body", "messages", 0, "user", "content", "str"],
          msg: "Input should be a valid string",
          input: 5,
        },
        {
          type: "list_type",
          loc: ["body", "messages", 0, "user", "content", PARTS],
          msg: "Input should be a valid list",
          input: 5,
        },
      ],
    });
  });

  it("checks content parts by their type tag", async () => {
    const content = [
      { type: "text" },
      { type: "image_url", image_url: { url: "u", detail: "mid" } },
      { type: "image_data", image_data: { type: "png", data: 1 } },
      { type: "video" },
      { text: "x" },
    ];
    const at = (...rest: (string | number)[]) => ["body", "messages", 0, "user", "content", ...rest];
    assert.deepEqual(await problems(withMessages({ role: "user", content })), [
      [at("str"), "string_type"],
      [at(PARTS, 0, "text", "text"), "missing"],
      [at(PARTS, 1, "image_url", "image_url", "detail"), "literal_error"],
      [at(PARTS, 2, "image_data", "image_data", "type"), "literal_error"],
      [at(PARTS, 2, "image_data", "image_data", "media_type"), "missing"],
      [at(PARTS, 2, "image_data", "image_data", "data"), "string_type"],
      [at(PARTS, 3), "union_tag_invalid"],
      [at(PARTS, 4), "union_tag_not_found"],
    ]);
  });
});
