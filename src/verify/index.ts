// pi-fold/verify: the reusable verifier (hash bytes, streams and files; verify a content-addressed
// store). Usable with no Pi installed. Being implemented.
export {};
