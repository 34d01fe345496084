// The turn_end forecast (src/pi turn-end-forecast.ts) on shapes nobody picked: the randomized
// sweep's generator (tests/simulate/shapes.ts: windows, output caps, system prompts, parallel
// batches, thinking, results past the fresh tail's share, now and then one larger than the window,
// Pi's threshold compaction on or off), each scheduling mode, windows up to 64k (a real Pi session
// per shape), played with the audit seam: no boundary the forecast ruled out ever did anything
// (returned drafts or appended a record), and the size the forecast reads (Pi's projection, kept as
// entries are appended) is that of the preview Pi built. The human's commands between runs are left out (their
// own test is in turn-end-forecast.test.ts). Sixty real sessions, about ten seconds.

import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Mode } from "../simulate/shapes.ts";
import { shapeArb } from "../simulate/shapes.ts";
import { playShape } from "./forecast-play.ts";
import { cleanupTempDirs } from "./harness.ts";

afterAll(cleanupTempDirs);

const MAX_WINDOW = 64_000;

describe("the turn_end forecast on the randomized sweep's shapes", () => {
	for (const mode of ["cost", "epoch", "immediate"] as Mode[])
		it(`never rules out a boundary that commits (${mode})`, async () => {
			let ruledOut = 0;
			let commits = 0;
			await fc.assert(
				fc.asyncProperty(
					shapeArb().map((s) => ({ ...s, window: Math.min(s.window, MAX_WINDOW), human: [] })),
					async (shape) => {
						const { audit } = await playShape(shape, mode, true);
						ruledOut += audit.filter((e) => e.forecast === false).length;
						commits += audit.filter((e) => e.committed).length;
						expect(audit.filter((e) => e.forecast === false && e.committed)).toEqual([]);
						expect(audit.filter((e) => e.previewTokens !== e.trackedTokens)).toEqual([]);
					},
				),
				{ numRuns: 20, seed: 4_242 + mode.length },
			);
			// The property is about skipping: the sessions must have skipped and committed somewhere.
			expect(ruledOut).toBeGreaterThan(0);
			expect(commits).toBeGreaterThan(0);
		}, 300_000);
});
