// Admission control on peek and expand, in a real in-process session: what either brings back lands
// in the window raw, so an expand that would not fit below the quiet line is refused with the numbers
// and what to do instead (the window does not change), and a peek asking for more than fits is
// trimmed to the room, saying so, with the offset to continue from.

import { afterAll, describe, expect, it } from "vitest";
import { crowded } from "./crowded.ts";
import { callTool, cleanupTempDirs, say, toolTexts } from "./harness.ts";

afterAll(cleanupTempDirs);

describe("admission control", () => {
	it("refuses an expand that would not fit, with the numbers, and the window does not change", async () => {
		const { h, id } = await crowded(false);
		const before = h.requests.length;
		h.script([callTool({ action: "expand", id }), say("ok")]);
		await h.run("open it");
		const text = toolTexts(h).at(-1) as string;
		expect(text).toMatch(
			/^expand refused: it would bring back ~[\d,]+ tokens, and the window \(~[\d,]+ now\) has room for ~[\d,]+ below 80% of the serving budget \(~[\d,]+\); peek a slice of it/,
		);
		expect(h.runtime.snapshot(h.host()).state.expanded.has(id)).toBe(false);
		// The request after the refusal is the previous one plus the refusal: nothing was restored.
		const last = h.requests.at(-1);
		expect(h.requests.length).toBe(before + 2);
		expect(last?.messages.some((m) => m.role === "toolResult" && JSON.stringify(m).includes("probe big1:"))).toBe(
			false,
		);
	});

	it("trims a peek to the room left, says so, and continues from where it stopped", async () => {
		const { h, id } = await crowded(false);
		h.script([callTool({ action: "peek", id, bytes: 64_000 }), say("ok")]);
		await h.run("look");
		const text = toolTexts(h).at(-1) as string;
		const m =
			/^\[peek \S+ · bytes 0-(\d+) of (\d+) · .* · trimmed to ([\d,]+) of the 64,000 bytes asked: the window has no room for more\]/.exec(
				text,
			);
		expect(m).not.toBeNull();
		const [, end, total, trimmed] = m as RegExpExecArray;
		expect(Number(end)).toBeLessThan(Number(total));
		expect(Number(end)).toBeLessThanOrEqual(Number(trimmed?.replaceAll(",", "")));
		expect(text).toContain(`[more: {"action":"peek","id":"${id}","offset":${end}}]`);
	});
});
