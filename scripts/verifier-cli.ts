// What the command-line verifiers share: exit code 2 with a message when their input cannot be
// read, and the reading of a JSON file saved from the API.
import { readFileSync } from "node:fs";

/** Prints the message and exits with code 2 (the files or arguments cannot be read). */
export function stop(message: string): never {
  console.error(message);
  process.exit(2);
}

/** A JSON file, or `stop` saying why it cannot be read. */
export function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    stop(`cannot read the ${what} file ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    stop(`the ${what} file ${path} is not JSON: ${(error as Error).message}`);
  }
}
