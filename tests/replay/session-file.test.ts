// Reading a Pi session file without Pi: the active branch as Pi opens it; older versions read as Pi
// migrates them; and every kind of bad input refused with a message that names the line.

import { describe, expect, it } from "vitest";
import { parseSessionFile } from "../../src/replay/index.ts";

const header = (version?: unknown) =>
	JSON.stringify({ type: "session", ...(version === undefined ? {} : { version }), id: "s1", cwd: "/w" });
const line = (o: Record<string, unknown>) => JSON.stringify(o);
const user = (id: string, parentId: string | null, text: string) =>
	line({ type: "message", id, parentId, message: { role: "user", content: text, timestamp: 1 } });
const reply = (id: string, parentId: string, input: number) =>
	line({
		type: "message",
		id,
		parentId,
		message: {
			role: "assistant",
			content: [{ type: "text", text: "ok" }],
			provider: "p",
			model: "m",
			usage: { input, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: input + 5 },
		},
	});

function errorOf(text: string): string {
	try {
		parseSessionFile(text);
	} catch (error) {
		return (error as Error).message;
	}
	return "(no error)";
}

describe("a session file", () => {
	it("gives the active branch: the last entry's path to the root, as Pi opens the file", () => {
		const text = [
			header(3),
			user("a", null, "hi"),
			reply("b", "a", 10),
			user("c", "b", "left"),
			user("d", "b", "right"),
			reply("e", "d", 20),
		].join("\n");
		const file = parseSessionFile(`${text}\n`);
		expect(file.entries.map((e) => e.id)).toEqual(["a", "b", "c", "d", "e"]);
		expect(file.branch.map((e) => e.id)).toEqual(["a", "b", "d", "e"]);
		expect(file.branch[4 - 1]?.line).toBe(6);
	});

	it("reads version 1 (no ids: a line after line) and version 2 (hookMessage is now custom)", () => {
		const v1 = parseSessionFile(
			`${[header(), line({ type: "message", message: { role: "user", content: "x" } }), line({ type: "message", message: { role: "assistant", content: [] } })].join("\n")}\n`,
		);
		expect(v1.version).toBe(1);
		expect(v1.branch.map((e) => e.id)).toEqual(["line-2", "line-3"]);
		const v2 = parseSessionFile(
			`${[header(2), line({ type: "message", id: "a", parentId: null, message: { role: "hookMessage", content: "n" } })].join("\n")}\n`,
		);
		expect(v2.branch[0]?.type === "message" && v2.branch[0].message.role).toBe("custom");
	});

	it("keeps entry types it does not read as plain tree nodes", () => {
		const file = parseSessionFile(
			`${[header(3), user("a", null, "hi"), line({ type: "label", id: "l", parentId: "a", targetId: "a", label: "x" })].join("\n")}\n`,
		);
		expect(file.branch.map((e) => e.kind)).toEqual(["message", "label"]);
	});
});

describe("bad input", () => {
	it("is refused at line 1 when it is not a session file", () => {
		expect(errorOf('{"hello":"world"}\n')).toMatch(
			/^line 1: not a Pi session file: the first line must be a session header/,
		);
		expect(errorOf("just text\n")).toBe(
			"line 1: not a Pi session file: a session file is JSON lines, and this first line is not JSON",
		);
		expect(errorOf("")).toBe("line 1: the file is empty: not a Pi session file");
	});

	it("names an unknown version", () => {
		expect(errorOf(`${header(4)}\n`)).toBe(
			"line 1: session version 4 is not one pi-fold reads (it reads versions 1, 2, 3, those of Pi 1.x)",
		);
	});

	it("names a truncated last line, and a broken line in the middle", () => {
		const whole = [header(3), user("a", null, "hi"), reply("b", "a", 10)].join("\n");
		expect(errorOf(whole.slice(0, -12))).toMatch(/^line 3: truncated: the last line is not complete JSON/);
		const broken = [header(3), '{"type":"message",', reply("b", "a", 10)].join("\n");
		expect(errorOf(`${broken}\n`)).toMatch(/^line 2: not valid JSON/);
	});

	it("names a malformed entry and a parent that is not in the file", () => {
		const bad = [header(3), user("a", null, "hi"), line({ type: "message", id: "b", parentId: "a", message: {} })];
		expect(errorOf(`${bad.join("\n")}\n`)).toBe(
			"line 3: message entry: message.role: Invalid input: expected string, received undefined",
		);
		const orphan = [header(3), user("a", null, "hi"), reply("b", "zz", 1)];
		expect(errorOf(`${orphan.join("\n")}\n`)).toBe("line 3: parent zz is not in the file");
	});
});
