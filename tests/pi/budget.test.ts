// The serving budget as a user configures it: providerTotalWindow, when given, is the total window
// every ratio is computed against (less the output reservation); the transport's descriptor (the
// model's window, whose share is the one occupancy figure Pi's footer shows) is still reported, so
// the gap stays auditable.
import type { Api, Message, Model } from "@earendil-works/pi-ai";
import { clampMaxTokensToContext } from "@earendil-works/pi-ai/api/simple-options";
import { getBuiltinModels, getBuiltinProviders } from "@earendil-works/pi-ai/providers/all";
import { afterAll, describe, expect, it } from "vitest";
import { budgetFor, PI_RESERVE_TOKENS } from "../../src/policy/index.ts";
import { callTool, cleanupTempDirs, createHarness, say, toolTexts } from "./harness.ts";

afterAll(cleanupTempDirs);

describe("the serving budget in status", () => {
	it("uses the model's descriptor when no providerTotalWindow is given", async () => {
		const h = await createHarness({ contextWindow: 100_000 });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/of the model's 100,000-token window .*· serving budget 95,904 tokens \(total 100,000 from descriptor less 4,096 kept for the reply \(the model's whole output cap, under Pi's 16,384-token reserve\); Pi compacts on its own above 83,616 tokens\)/,
		);
	});

	it("uses providerTotalWindow as the total and still reports the descriptor", async () => {
		const h = await createHarness({ contextWindow: 100_000, options: { providerTotalWindow: 150_000 } });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/of the model's 100,000-token window .*· serving budget 145,904 tokens \(total 150,000 from providerTotalWindow less 4,096 kept for the reply \(the model's whole output cap, under Pi's 16,384-token reserve\); Pi compacts on its own above 83,616 tokens\)/,
		);
	});
});

describe("the room kept for the reply", () => {
	it("is Pi's compaction reserve from Pi's settings when the model's output cap is larger", async () => {
		// The faux model's output cap is 4,096; Pi's reserve set to 2,000 is what a reply keeps.
		const h = await createHarness({ contextWindow: 100_000, compaction: { enabled: false, reserveTokens: 2_000 } });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/serving budget 98,000 tokens \(total 100,000 from descriptor less 2,000 kept for the reply \(the room Pi keeps for a reply; pi-ai sizes each reply to the room the prompt leaves, so the model's 4,096-token output cap is not held back\); Pi compacts on its own above 98,000 tokens\)/,
		);
	});
});

describe("the limit against pi-ai's own clients", () => {
	it("is what the request pi-ai sends can hold for every catalog model of the wire-tested APIs, never below Pi's threshold", () => {
		const apis = new Set(["anthropic-messages", "openai-responses", "openai-completions"]);
		let checked = 0;
		for (const provider of getBuiltinProviders())
			for (const model of getBuiltinModels(provider) as Model<Api>[]) {
				// A model whose output cap fills its whole window (gpt-4 at 8,192) has no room for a prompt at all.
				if (!apis.has(model.api) || !(model.maxTokens > 0) || model.maxTokens >= model.contextWindow) continue;
				const budget = budgetFor(model, undefined).budgetTokens;
				// A prompt of exactly the budget, as pi-ai estimates it (the last reply's reported usage).
				const prompt = {
					role: "assistant",
					content: [{ type: "text", text: "x" }],
					usage: { input: budget, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: budget },
					stopReason: "stop",
					timestamp: 1,
				} as unknown as Message;
				const maxTokens = clampMaxTokensToContext(
					model,
					{ messages: [prompt] } as unknown as Parameters<typeof clampMaxTokensToContext>[1],
					model.maxTokens,
				);
				const where = `${provider}/${model.id} (${model.contextWindow}, cap ${model.maxTokens})`;
				// Never tighter than Pi's own compaction threshold with its default reserve.
				expect(budget, where).toBeGreaterThanOrEqual(model.contextWindow - PI_RESERVE_TOKENS);
				// The request pi-ai sends at the limit holds the prompt and the reply it sizes, inside the window...
				expect(budget + maxTokens, where).toBeLessThanOrEqual(model.contextWindow);
				// ...and the reply keeps its room less pi-ai's 4,096-token counting margin: the rest of Pi's reserve
				// (12,288), or of the cap when that is smaller (a cap of 8,192 leaves 4,096 at the limit, as before).
				expect(maxTokens, where).toBeGreaterThanOrEqual(Math.min(model.maxTokens, PI_RESERVE_TOKENS) - 4_096);
				checked++;
			}
		expect(checked).toBeGreaterThan(50);
	});
});
