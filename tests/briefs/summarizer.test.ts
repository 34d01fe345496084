import { describe, expect, it } from "vitest";
import { deterministicBrief, type SummaryCall, summarizeSpan } from "../../src/briefs/index.ts";
import { readBatch, reply, user } from "../helpers/entries.ts";

const span = [
	user("u", "find the parser"),
	...readBatch("b", ["src/parser.ts"]),
	reply("a", "Parser is in src/parser.ts"),
];
const ok: SummaryCall = async () => ({
	text: "src/parser.ts defines Parser; the agent confirmed it is the entry point.",
	provider: "faux",
	model: "faux-1",
	toolCalls: 0,
});

describe("model-written briefs", () => {
	it("uses the model's brief and records its provenance", async () => {
		const { brief, provenance } = await summarizeSpan(span, ok);
		expect(brief).toMatch(/defines Parser/);
		expect(provenance).toMatchObject({ source: "model", provider: "faux", model: "faux-1" });
	});

	it("sends a bounded request with no tools and a bounded output", async () => {
		let seen: Parameters<SummaryCall>[0] | undefined;
		const huge = readBatch("h", ["big.ts"], () => "y".repeat(200_000));
		await summarizeSpan(huge, async (request) => {
			seen = request;
			return ok(request);
		});
		expect(seen?.prompt.length).toBeLessThan(48_100);
		expect(seen?.maxTokens).toBe(400);
	});

	it("reads the span as the window shows it when given, and falls back to the brief of its leaves", async () => {
		const shown = [
			user("u", "find the parser"),
			user("f", "[active-context fold f0123456789abcdef · the parser is in src/parser.ts]"),
		];
		let prompt = "";
		await summarizeSpan(
			span,
			async (request) => {
				prompt = request.prompt;
				return ok(request);
			},
			{ shown },
		);
		expect(prompt).toContain("[active-context fold f0123456789abcdef");
		expect(prompt).not.toContain("Parser is in src/parser.ts");
		const failed = await summarizeSpan(
			span,
			async () => {
				throw new Error("down");
			},
			{ shown },
		);
		expect(failed.brief).toBe(deterministicBrief(span));
	});

	it("falls back to the deterministic brief when the call throws, times out or returns junk", async () => {
		const expected = deterministicBrief(span);
		const thrown = await summarizeSpan(span, async () => {
			throw new Error("provider 503");
		});
		expect(thrown).toMatchObject({
			brief: expected,
			provenance: { source: "deterministic", fallbackReason: "summarizer failed: provider 503" },
		});
		const slow = await summarizeSpan(
			span,
			(r) =>
				new Promise((resolve) =>
					r.signal.addEventListener("abort", () => resolve({ text: "late", provider: "p", model: "m", toolCalls: 0 })),
				),
			{ timeoutMs: 20 },
		);
		expect(slow.provenance.fallbackReason).toMatch(/timed out after 20 ms/);
		const junk = await summarizeSpan(span, async () => ({ text: "read", provider: "p", model: "m", toolCalls: 0 }));
		expect(junk.provenance.fallbackReason).toMatch(/only names structure/);
		const tools = await summarizeSpan(span, async () => ({
			text: "A long enough brief about the parser.",
			provider: "p",
			model: "m",
			toolCalls: 1,
		}));
		expect(tools.provenance.fallbackReason).toMatch(/tool call/);
	});

	it("makes no call at all without a summarizer", async () => {
		expect((await summarizeSpan(span, undefined)).provenance).toEqual({ source: "deterministic" });
	});
});
