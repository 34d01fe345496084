// Child process: verifies the store at argv[2] on the calling thread and prints the result as JSON.
// Bundled and run as an unprivileged user by tests/verify/store.test.ts.

import { verifyStore } from "../../../src/verify/index.ts";

const result = await verifyStore(process.argv[2] as string, { workers: 0 });
process.stdout.write(`${JSON.stringify(result)}\n`);
