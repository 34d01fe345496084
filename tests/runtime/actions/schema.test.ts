// The tool's argument schema without a Pi session: the generated parameter JSON Schema is one
// object a provider accepts, it follows `toolActions`, and the zod validation behind it names the
// field and shows the valid shape for every kind of malformed call.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../../src/options/index.ts";
import { parseToolArgs, shapeOf, toolParameters } from "../../../src/runtime/actions/tool-schema.ts";

const ALL = resolveOptions().toolActions;

describe("the generated parameter schema", () => {
	it("is one object with the action enum and every field described by the actions that use it", () => {
		const schema = toolParameters(ALL) as {
			type: string;
			required: string[];
			properties: Record<string, { enum?: string[]; description?: string; type?: string }>;
		};
		expect(schema.type).toBe("object");
		expect(schema.required).toEqual(["action"]);
		expect(schema.properties.action?.enum).toEqual([...ALL]);
		expect(schema.properties.id?.description).toMatch(/Used by: peek, expand, refold, protect\?, unprotect\?, rebrief/);
		expect(schema.properties.from?.description).toMatch(/Used by: fold \(/);
		expect(Object.keys(schema)).not.toContain("oneOf");
	});

	it("follows toolActions: a filtered tool neither offers nor accepts the other actions", () => {
		const actions = resolveOptions({ toolActions: ["status", "peek"] }).toolActions;
		const schema = toolParameters(actions) as { properties: Record<string, unknown> };
		expect(Object.keys(schema.properties).sort()).toEqual(["action", "bytes", "detail", "id", "offset", "page"]);
		const parsed = parseToolArgs({ action: "fold", from: "a", to: "b" }, actions);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok)
			expect(parsed.error).toMatch(/^action: "fold" is not an action of this tool; valid actions: status, peek/);
	});

	it("offers unmark only where a fold is a pending mark", () => {
		expect(resolveOptions({ foldScheduling: "immediate" }).toolActions).not.toContain("unmark");
		expect(resolveOptions({ foldScheduling: "epoch" }).toolActions).toContain("unmark");
		expect(resolveOptions({}).toolActions).toContain("unmark");
	});
});

describe("a malformed call", () => {
	it.each([
		[{ action: "expand" }, /^id: .*Valid shape: \{"action":"expand","id":<string>\}$/],
		[{ action: "peek", id: "f0123456789abcdef", bytes: 0 }, /^bytes: .*Valid shape: \{"action":"peek"/],
		[{ action: "fold", from: "a" }, /^to: /],
		[{ action: "rebrief", id: "nope", brief: "A brief long enough to pass." }, /^id: expected a fold id/],
		[{ action: "status", verbose: true }, /^verbose: not a field of status/],
		[{}, /^action: missing is not an action of this tool/],
	])("%j is refused with the field named", (raw, message) => {
		const parsed = parseToolArgs(raw, ALL);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.error).toMatch(message);
	});

	it("shows each action's shape with optional fields marked", () => {
		expect(shapeOf("peek")).toBe('{"action":"peek","id":<string>,"offset"?:<integer>,"bytes"?:<integer>}');
		expect(shapeOf("reboundary")).toBe(
			'{"action":"reboundary","op":"dissolve"|"merge","ids":[<string>, ...],"brief"?:<string>}',
		);
	});
});
