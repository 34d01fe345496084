import { describe, expect, it } from "vitest";
import { progressReporter } from "../../src/cli/progress.ts";

function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; out: string[] } {
	const out: string[] = [];
	const stream = { isTTY, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
	return { stream, out };
}

const MiB = 1024 * 1024;

describe("progressReporter", () => {
	it("redraws one bar on a terminal and clears it at the end", () => {
		const { stream, out } = fakeStream(true);
		const p = progressReporter(stream, "verifying");
		p.update({ bytesDone: 0, bytesTotal: 8 * MiB, blobsDone: 0, blobsTotal: 4 });
		p.update({ bytesDone: 8 * MiB, bytesTotal: 8 * MiB, blobsDone: 4, blobsTotal: 4 });
		p.done();
		expect(out[0]).toBe("\rverifying [------------------------]   0%  0.0/8.0 MiB, 0/4 blobs\x1b[K");
		expect(out[1]).toBe("\rverifying [########################] 100%  8.0/8.0 MiB, 4/4 blobs\x1b[K");
		expect(out.at(-1)).toBe("\r\x1b[K");
		expect(out.join("")).not.toContain("\n");
	});

	it("prints a plain line per quarter elsewhere", () => {
		const { stream, out } = fakeStream(false);
		const p = progressReporter(stream, "verifying");
		for (let i = 0; i <= 10; i++) p.update({ bytesDone: i * MiB, bytesTotal: 10 * MiB, blobsDone: i, blobsTotal: 10 });
		p.done();
		expect(out.map((l) => l.split(" (")[0])).toEqual([
			"verifying: 0%",
			"verifying: 25%",
			"verifying: 50%",
			"verifying: 75%",
			"verifying: 100%",
		]);
	});
});
