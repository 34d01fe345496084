// pi-fold's limit is what the request pi-ai sends can hold: the window less the room a reply needs
// at least (Pi's compaction reserve: pi-ai sizes each reply's max_tokens to the room the prompt
// leaves), or less the model's output cap when that is smaller, and never tighter than Pi's own
// compaction threshold. providerTotalWindow still wins as the total.
import { describe, expect, it } from "vitest";
import { budgetFor, PI_RESERVE_TOKENS } from "../../src/policy/index.ts";

/** Pi's compaction threshold for a window: where Pi compacts on its own with its default reserve. */
const piThreshold = (window: number) => window - PI_RESERVE_TOKENS;

describe("budgetFor", () => {
	it("keeps Pi's reserve for the reply, not the model's whole output cap (catalog models)", () => {
		// gpt-5.4 and claude-opus-4-5 as pi-ai's catalog has them.
		const gpt = budgetFor({ contextWindow: 272_000, maxTokens: 128_000 }, undefined);
		expect(gpt.budgetTokens).toBe(255_616);
		expect(gpt.reservationFrom).toBe("reply-room");
		expect(gpt.outputCap).toBe(128_000);
		const opus = budgetFor({ contextWindow: 200_000, maxTokens: 64_000 }, undefined);
		expect(opus.budgetTokens).toBe(183_616);
		expect(opus.hostThreshold).toBe(183_616);
	});

	it("keeps only the model's output cap when it is smaller than the reply's room", () => {
		const faux16 = budgetFor({ contextWindow: 16_000, maxTokens: 4_096 }, undefined);
		expect(faux16.budgetTokens).toBe(11_904);
		expect(faux16.reservationFrom).toBe("output-cap");
		const faux64 = budgetFor({ contextWindow: 64_000, maxTokens: 4_096 }, undefined);
		expect(faux64.budgetTokens).toBe(59_904);
		expect(budgetFor({ contextWindow: 64_000, maxTokens: 16_384 }, undefined).budgetTokens).toBe(47_616);
	});

	it("reads the reserve Pi's settings give (a model override included)", () => {
		const b = budgetFor({ contextWindow: 200_000, maxTokens: 64_000, replyReserve: 40_000 }, undefined);
		expect(b.budgetTokens).toBe(160_000);
		expect(b.hostThreshold).toBe(160_000);
	});

	it("is never tighter than Pi's own compaction threshold", () => {
		for (const window of [16_000, 32_000, 64_000, 128_000, 200_000, 272_000, 1_000_000])
			for (const maxTokens of [1_024, 4_096, 16_384, 32_000, 64_000, 128_000, undefined]) {
				const b = budgetFor({ contextWindow: window, maxTokens }, undefined);
				expect(b.budgetTokens).toBeGreaterThanOrEqual(piThreshold(window));
				expect(b.budgetTokens).toBeLessThanOrEqual(window);
			}
	});

	it("lets providerTotalWindow win as the total", () => {
		const b = budgetFor({ contextWindow: 272_000, maxTokens: 128_000 }, 400_000);
		expect(b.totalWindow).toBe(400_000);
		expect(b.descriptorWindow).toBe(272_000);
		expect(b.budgetTokens).toBe(400_000 - 16_384);
	});
});
