import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliBench } from "../../bench/hashing/cli-bench.ts";
import { renderCliTable } from "../../bench/hashing/cli-report.ts";

const CLI = join(process.cwd(), "build", "cli.js");

describe("pi-fold bench --cli (the process-level benchmark)", () => {
	it("times verify and hash as fresh processes beside their peers, both passes, and cleans up", async () => {
		expect(existsSync(CLI), "build/cli.js is missing: run npm run build").toBe(true);
		const before = readdirSync(tmpdir()).filter((n) => n.startsWith("pi-fold-bench-cli-"));
		const seen: number[] = [];
		const r = await runCliBench({ storeMiB: 1, fileMiB: 1, repeats: 1, cliBin: CLI, progress: (f) => seen.push(f) });
		expect(r.passes.map((p) => p.name)).toEqual(["as is", "SHA-NI masked"]);
		expect(r.passes[1]?.env.OPENSSL_ia32cap).toBe(":~0x20000000");
		for (const pass of r.passes) {
			const [store, file] = pass.scenarios;
			expect(store?.rows.map((row) => row.label).slice(0, 3)).toEqual([
				"pi-fold verify",
				"node:crypto script, 1 thread",
				`node:crypto script, ${pass.threads} worker thread${pass.threads === 1 ? "" : "s"}`,
			]);
			expect(file?.rows[0]?.label).toBe("pi-fold hash");
			for (const row of [...(store?.rows ?? []), ...(file?.rows ?? [])]) expect(row.ms).toBeGreaterThan(0);
			expect(pass.memory.map((m) => m.label)).toEqual(["pi-fold verify", "pi-fold hash"]);
			for (const m of pass.memory) expect(m.bytes).toBeGreaterThan(10e6);
		}
		const [, one, , zero] = r.passes[0]?.scenarios[0]?.rows ?? [];
		expect(one?.target).toBe(1.7);
		expect(zero).toMatchObject({ label: "pi-fold verify --workers 0", versus: "one", target: 1 / 1.1 });
		expect(zero?.ratio).toBeCloseTo((one?.ms ?? 0) / (zero?.ms ?? 1), 9);
		expect(seen.at(-1)).toBeCloseTo(1, 5);
		for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1] ?? 0);
		const table = renderCliTable(r);
		for (const line of table.split("\n")) expect(line.length, line).toBeLessThanOrEqual(100);
		expect(table).toMatch(/### SHA-NI masked \(OPENSSL_ia32cap=:~0x20000000\)/);
		expect(table).toMatch(/peak memory of pi-fold verify: [\d.]+ MB \(target <= 100 MB: (met|MISSED)\)/);
		expect(readdirSync(tmpdir()).filter((n) => n.startsWith("pi-fold-bench-cli-"))).toEqual(before);
	});
});
