import { execFileSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIo } from "../io/memory-io.test-support.js";
import { fileError, MAX_INPUT_BYTES, readInputFile } from "./read-file.js";
import { type TempFiles, tempFiles } from "./temp-files.test-support.js";

let files: TempFiles;
beforeAll(() => {
  files = tempFiles({ "small.yaml": "a: 1\n" });
  mkdirSync(join(files.dir, "dir"));
});
afterAll(() => files.remove());

const io = () => memoryIo({ tty: false, cwd: files.dir }).io;

/**
 * Writes `chunk` into the FIFO at `path` up to `limit` bytes in all, stopping
 * early when the reader goes away (EPIPE); resolves with the bytes written.
 */
function feed(path: string, chunk: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const stream = createWriteStream(path);
    let written = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      stream.destroy();
      resolve(written);
    };
    stream.on("error", finish);
    stream.on("close", finish);
    const pump = () => {
      while (!done && written < limit) {
        written += chunk.length;
        if (!stream.write(chunk)) {
          stream.once("drain", pump);
          return;
        }
      }
      if (!done) stream.end();
    };
    stream.once("open", pump);
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("readInputFile holds its cap for every kind of file", () => {
  it("stops a named pipe (or <(command)) at the cap, naming the file and the cap", async () => {
    const fifo = files.path("pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    // The writer offers 8 MiB more than the cap, then stops on its own.
    const written = feed(fifo, Buffer.alloc(1024 * 1024, 0x61), MAX_INPUT_BYTES + 8 * 1024 * 1024);
    const error = await rejection(readInputFile("pipe.yaml", io()));
    await written;
    expect(error).toMatchObject({
      code: "FILE_UNREADABLE",
      message: `pipe.yaml: larger than ${MAX_INPUT_BYTES} bytes`,
      input: "pipe.yaml",
    });
  });

  it("reads a named pipe within the cap as a file", async () => {
    const fifo = files.path("short.yaml");
    execFileSync("mkfifo", [fifo]);
    const written = feed(fifo, Buffer.from("tags: [1.0.0]\n"), 1);
    const file = await readInputFile("short.yaml", io());
    await written;
    expect(file).toEqual({ name: "short.yaml", text: "tags: [1.0.0]\n" });
  });

  it.runIf(existsSync("/dev/zero"))("stops an endless character device at the cap", async () => {
    const error = await rejection(readInputFile("/dev/zero", io()));
    expect(error).toMatchObject({
      code: "FILE_UNREADABLE",
      message: `/dev/zero: larger than ${MAX_INPUT_BYTES} bytes`,
    });
  });

  it("reads a regular file, and refuses a directory and a missing file", async () => {
    expect(await readInputFile("small.yaml", io())).toEqual({ name: "small.yaml", text: "a: 1\n" });
    expect(await rejection(readInputFile("dir", io()))).toMatchObject({
      code: "FILE_UNREADABLE",
      message: "dir: is a directory",
    });
    expect(await rejection(readInputFile("nope.yaml", io()))).toMatchObject({
      code: "FILE_NOT_FOUND",
      message: "nope.yaml: no such file",
    });
  });
});

describe("fileError", () => {
  // Each cause is one sentence naming the file; the system's own text (which
  // quotes the absolute path) never reaches the user, nor "undefined".
  it.each([
    { error: { code: "EACCES" }, want: "f.yaml: cannot be read: permission denied" },
    { error: { code: "EIO" }, want: "f.yaml: cannot be read: input/output error" },
    { error: { code: "ELOOP" }, want: "f.yaml: cannot be read: too many levels of symbolic links" },
    { error: { code: "EWHATEVER" }, want: "f.yaml: cannot be read (system error EWHATEVER)" },
    { error: new TypeError("EACCES: raw /abs/path"), want: "f.yaml: cannot be read (TypeError)" },
    { error: { code: 42 }, want: "f.yaml: cannot be read (unknown failure)" },
    { error: undefined, want: "f.yaml: cannot be read (unknown failure)" },
  ])("$want", ({ error, want }) => {
    const e = fileError("f.yaml", error);
    expect(e).toMatchObject({ code: "FILE_UNREADABLE", message: want, input: "f.yaml" });
  });

  it("prefixes the flag it was given", () => {
    expect(fileError("certs.d", { code: "EACCES" }, "--node-config").message).toBe(
      "--node-config certs.d: cannot be read: permission denied",
    );
  });
});
