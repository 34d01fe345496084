// A vitest reporter that ends the run with one plain line, "tests: N passed, N failed, N skipped",
// which CI reads to count the run (vitest's own summary is not a format CI parses).
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryLineReporter implements Reporter {
	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		let passed = 0;
		let failed = 0;
		let skipped = 0;
		for (const module of testModules) {
			for (const test of module.children.allTests()) {
				const state = test.result().state;
				if (state === "passed") passed++;
				else if (state === "failed") failed++;
				else skipped++;
			}
			if (module.state() === "failed" && module.children.size === 0) failed++;
		}
		process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
	}
}
