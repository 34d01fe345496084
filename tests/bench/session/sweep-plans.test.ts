// Short sessions (issue 20 item 6): `pi-fold demo --stages-sweep a,b` (and `--sweep`, with 8, 16, 32 and 64 stages)
// runs every arm at 200k for plans of those lengths and prints their table and the target "the default <= 1.0x the
// cheaper native", met or MISSED as measured; a 200k window run of the same plan length is reused, not rerun.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDemoArgs } from "../../../bench/demo.ts";
import { runSweep, type SweepResult } from "../../../bench/session/index.ts";
import { cheaperNative } from "../../../bench/session/native-baseline.ts";

let out: string;
let sweep: SweepResult;

beforeAll(async () => {
	out = mkdtempSync(join(tmpdir(), "pi-fold-sweep-plans-"));
	sweep = await runSweep({
		arms: ["native", "pifold-ladder"],
		stages: 8,
		windows: [200_000],
		stagesSweep: [8, 4],
		out,
		progress: false,
	});
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("short plans at 200k", () => {
	it("runs each plan length at 200k, shortest first, reusing the 200k window run of the same length", () => {
		expect(sweep.plans.map((r) => [r.plan.stageCount, r.settings.window])).toEqual([
			[4, 200_000],
			[8, 200_000],
		]);
		expect(sweep.plans[1]).toBe(sweep.reports[0]);
		expect(existsSync(join(out, "plans-200000", "stages-4", "report.json"))).toBe(true);
		expect(existsSync(join(out, "plans-200000", "stages-8"))).toBe(false);
	});

	it("prints a row per plan and arm and judges the default against the cheaper native as measured", () => {
		const section = sweep.table.slice(sweep.table.indexOf("Short plans at 200k"));
		expect(section).toMatch(/^\| 4 \| native \| 4\/4 \| \$\d+\.\d\d \|/m);
		expect(section).toMatch(/^\| 8 \| pifold-ladder \| 8\/8 \| \$\d+\.\d\d \(\d\.\d\dx\) \|/m);
		const verdict = sweep.verdicts.find((v) => v.target.startsWith("at 200k for plans of"));
		expect(verdict?.target).toBe("at 200k for plans of 4, 8 stages: the default <= 1.0x the cheaper native");
		const ratios = sweep.plans.map((r) => {
			const ladder = r.arms.find((a) => a.name === "pifold-ladder");
			const native = cheaperNative(r.arms, "tiered");
			return (ladder?.totals.cost ?? Number.NaN) / (native?.totals.cost ?? Number.NaN);
		});
		expect(verdict?.met).toBe(ratios.every((x) => x <= 1));
		expect(section).toContain(`| ${verdict?.met ? "met" : "MISSED"} |`);
	});

	it("--sweep includes plans of 8, 16, 32 and 64 stages; --stages-sweep alone runs only the plans", () => {
		const full = parseDemoArgs(["--sweep"]);
		expect(full !== "help" && full.stagesSweep).toEqual([8, 16, 32, 64]);
		const plans = parseDemoArgs(["--stages-sweep", "8,16"]);
		expect(plans !== "help" && [plans.windows, plans.stagesSweep]).toEqual([[], [8, 16]]);
		expect(() => parseDemoArgs(["--stages-sweep", "8,x"])).toThrow(/--stages-sweep needs whole numbers/);
	});
});
