// The whole demo, short: the results folder holds a report.json that validates against the exported schema, a
// report.md with the table, a context.svg that parses as XML with one series per arm, and each arm's session
// file, which `pi-fold replay` reads back to the ledger's own figures.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoResult, parseDemoOptions, reportSchema, runDemo } from "../../../bench/session/index.ts";
import { parseSessionFile, replaySession } from "../../../src/replay/index.ts";

let out: string;
let result: DemoResult;

beforeAll(async () => {
	out = mkdtempSync(join(tmpdir(), "pi-fold-demo-test-"));
	result = await runDemo(
		{ stages: 12, window: 70_000, arms: ["native", "unmanaged"], out, progress: false },
		{ command: "pi-fold demo --stages 12 --window 70000" },
	);
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A small XML well-formedness check: balanced tags, quoted attributes, nothing outside the root. */
function parseXml(text: string): { name: string; attrs: Record<string, string> }[] {
	const elements: { name: string; attrs: Record<string, string> }[] = [];
	const stack: string[] = [];
	const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->/g;
	let last = 0;
	for (const m of text.matchAll(tag)) {
		const between = text.slice(last, m.index);
		if (/[<>]/.test(between)) throw new Error(`stray markup near offset ${last}: ${between.slice(0, 40)}`);
		if (stack.length === 0 && between.trim() !== "" && elements.length > 0)
			throw new Error("text outside the root element");
		last = (m.index ?? 0) + m[0].length;
		if (!m[2]) continue;
		const [, closing, name, attrText, selfClosing] = m as unknown as [string, string, string, string, string];
		if (closing) {
			if (stack.pop() !== name) throw new Error(`mismatched </${name}>`);
			continue;
		}
		if (stack.length === 0 && elements.length > 0) throw new Error("a second root element");
		const attrs = Object.fromEntries([...attrText.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
		elements.push({ name, attrs: attrs as Record<string, string> });
		if (!selfClosing) stack.push(name);
	}
	if (stack.length > 0) throw new Error(`unclosed <${stack.at(-1)}>`);
	if (text.slice(last).trim() !== "") throw new Error("text after the root element");
	return elements;
}

describe("the demo's results folder", () => {
	it("has a report.json that validates against the exported zod schema", () => {
		const json = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
		const report = reportSchema.parse(json);
		expect(report.arms.map((a) => a.name)).toEqual(["native", "unmanaged"]);
		expect(report.command).toBe("pi-fold demo --stages 12 --window 70000");
		expect(report.plan.stageCount).toBe(12);
		expect(report.arms[0]?.status).toBe("complete");
		expect(report.arms[1]?.status).toBe("overflow");
	});

	it("prints the side-by-side table, with the same-stage cut when an arm stopped early", () => {
		const md = readFileSync(join(out, "report.md"), "utf8");
		expect(md).toContain(result.table);
		for (const row of [
			"| Measure | native | unmanaged |",
			"| Total tokens |",
			"| Input tokens not from the cache |",
			"| Input tokens read from the cache |",
			"| Model requests (summaries, briefs) |",
			"| Cost |",
			"| Cost with no long-context price |",
			"| Paid extra for long context |",
			"| Share of input from the cache |",
			"| Largest request (tokens) |",
			"| Compactions / pi-fold commits |",
			"| Files read again (MB) |",
			"| Questions on earlier work answered right |",
			"| Stages completed | 12 of 12 |",
			"| Time to run |",
		])
			expect(result.table).toContain(row);
		expect(result.table).toMatch(/every arm cut at stage \d+/);
		expect(result.report.cut?.stage).toBe(result.report.arms[1]?.stagesCompleted);
	});

	it("draws context.svg: well-formed XML with one series per arm", () => {
		const svg = readFileSync(join(out, "context.svg"), "utf8");
		const elements = parseXml(svg);
		expect(elements[0]?.name).toBe("svg");
		const series = elements.filter((e) => e.name === "g" && e.attrs.class === "series");
		expect(series.map((s) => s.attrs["data-arm"])).toEqual(["native", "unmanaged"]);
		expect(elements.filter((e) => e.name === "polyline")).toHaveLength(2);
	});

	it("keeps each arm's session file", () => {
		for (const arm of ["native", "unmanaged"])
			expect(readFileSync(join(out, `${arm}.session.jsonl`), "utf8").split("\n").length).toBeGreaterThan(10);
	});

	it("keeps session files pi-fold replay reads back to the ledger's own figures", async () => {
		const native = result.report.arms[0] as (typeof result.report.arms)[number];
		const file = parseSessionFile(readFileSync(join(out, "native.session.jsonl"), "utf8"));
		const replayed = await replaySession(file, { window: 70_000, maxOutput: result.report.settings.maxTokens });
		const t = native.totals;
		expect(replayed.native.total.calls).toBe(t.billedCalls);
		expect(replayed.native.total.input + replayed.native.total.cacheWrite).toBe(t.freshInput);
		expect(replayed.native.total.cacheRead).toBe(t.cacheRead);
		expect(replayed.native.total.output).toBe(t.output);
		expect(replayed.native.compactions).toBe(native.compactions);
		const agent = native.requests.filter((r) => r.kind === "agent" && !r.rejected);
		expect(replayed.native.prompts.map((p) => p.prompt)).toEqual(agent.map((r) => r.context));
		expect(replayed.pifold.requests.length).toBeGreaterThan(0);
	});
});

describe("pi-fold demo flags", () => {
	it("runs every arm by default, the pi-fold arms included", () => {
		expect(parseDemoOptions({}).arms).toEqual([
			"native",
			"native-tuned",
			"pifold-ladder",
			"pifold-agent",
			"pifold-immediate",
			"pifold-epoch",
		]);
	});

	it("refuses an unknown arm, naming the known ones", async () => {
		await expect(runDemo({ arms: ["pifold-nothing"], progress: false, out })).rejects.toThrow(
			/unknown arm "pifold-nothing"; known arms: native, native-tuned, unmanaged, pifold-ladder, pifold-immediate, pifold-epoch, pifold-agent, pifold-agent-272k, pifold-ladder-blind/,
		);
	});
});
