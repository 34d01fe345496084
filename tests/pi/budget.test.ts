// The serving budget as a user configures it: providerTotalWindow, when given, is the total window
// every ratio is computed against (less the output reservation); the transport's descriptor (the
// model's window, whose share is the one occupancy figure Pi's footer shows) is still reported, so
// the gap stays auditable.
import { afterAll, describe, expect, it } from "vitest";
import { callTool, cleanupTempDirs, createHarness, say, toolTexts } from "./harness.ts";

afterAll(cleanupTempDirs);

describe("the serving budget in status", () => {
	it("uses the model's descriptor when no providerTotalWindow is given", async () => {
		const h = await createHarness({ contextWindow: 100_000 });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/of the model's 100,000-token window .*· serving budget 95,904 tokens \(total 100,000 from descriptor − output reservation 4,096\)/,
		);
	});

	it("uses providerTotalWindow as the total and still reports the descriptor", async () => {
		const h = await createHarness({ contextWindow: 100_000, options: { providerTotalWindow: 150_000 } });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/of the model's 100,000-token window .*· serving budget 145,904 tokens \(total 150,000 from providerTotalWindow − output reservation 4,096\)/,
		);
	});
});
