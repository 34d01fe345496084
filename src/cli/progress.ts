// Progress display for long CLI operations: a redrawn bar on a terminal, plain lines at each quarter
// otherwise (logs, pipes, CI). Writes to the stream it is given (stderr), never to stdout.

import type { VerifyProgress } from "../verify/index.ts";

const MiB = 1024 * 1024;

function mib(bytes: number): string {
	return (bytes / MiB).toFixed(1);
}

/** A progress sink for verifyStore's onProgress; call done() once at the end. */
export function progressReporter(
	stream: NodeJS.WriteStream,
	label: string,
): { update(p: VerifyProgress): void; done(): void } {
	const tty = stream.isTTY === true;
	let lastDraw = 0;
	let lastQuarter = -1;
	let drawn = false;
	const text = (p: VerifyProgress) =>
		`${mib(p.bytesDone)}/${mib(p.bytesTotal)} MiB, ${p.blobsDone}/${p.blobsTotal} blobs`;
	return {
		update(p) {
			const fraction =
				p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.blobsTotal > 0 ? p.blobsDone / p.blobsTotal : 1;
			if (tty) {
				const now = Date.now();
				if (now - lastDraw < 80 && fraction < 1) return;
				lastDraw = now;
				const width = 24;
				const filled = Math.round(fraction * width);
				stream.write(
					`\r${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${text(p)}\x1b[K`,
				);
				drawn = true;
				return;
			}
			const quarter = Math.floor(fraction * 4);
			if (quarter > lastQuarter) {
				lastQuarter = quarter;
				stream.write(`${label}: ${quarter * 25}% (${text(p)})\n`);
			}
		},
		done() {
			if (tty && drawn) stream.write("\r\x1b[K");
		},
	};
}
