// Child process: writes a blob into the store at argv[2] slowly (1 MiB pieces, 50 ms apart, for a
// minute), printing "writing" once the first piece is in its temporary file, so the parent can kill
// it mid-write (tests/store/hostile.test.ts, crash leftovers).

import { writeBlobStream } from "../../../src/verify/index.ts";

async function* pieces(): AsyncGenerator<Uint8Array> {
	for (let i = 0; i < 1200; i++) {
		yield new Uint8Array(1024 * 1024).fill(i & 0xff);
		if (i === 0) process.stdout.write("writing\n");
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

await writeBlobStream(process.argv[2] as string, pieces(), { durable: false });
