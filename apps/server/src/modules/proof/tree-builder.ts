// Builds proof-of-liabilities trees on a worker thread: 100,000 users take seconds of CPU, which
// must not stall order placement on the main thread. The worker keeps the latest tree and
// answers inclusion proofs from it.
import { createHmac } from "node:crypto";
import { Worker } from "node:worker_threads";
import { buildTree, type LiabilityTree, type ProofJson, type RootJson } from "@candor/proof";
import { serverFile } from "../../server-files.ts";

/** What a tree is built from: the liabilities at one sequence and the salt secret. */
export interface BuildInput {
  assets: string[];
  bits: number;
  sequence: bigint;
  /** 64 hex digits; salts are derived from it (`saltFor`). */
  secret: string;
  owners: { ownerId: string; values: bigint[] }[];
}

/**
 * A user's salt in the tree of one sequence: HMAC-SHA256(secret, sequence | user id), 64 hex
 * digits. Other users cannot guess it; the operator can rebuild the same tree from the same state.
 */
export function saltFor(secret: string, sequence: bigint, userId: string): string {
  return createHmac("sha256", Buffer.from(secret, "hex"))
    .update(`candor/proof-salt/v1|${sequence}|${userId}`)
    .digest("hex");
}

/** The tree of one build input: a leaf per owner, with its derived salt. */
export function build(input: BuildInput): LiabilityTree {
  return buildTree({
    assets: input.assets,
    bits: input.bits,
    leaves: input.owners.map((owner) => ({
      userId: owner.ownerId,
      salt: saltFor(input.secret, input.sequence, owner.ownerId),
      values: owner.values,
    })),
  });
}

export type BuilderRequest =
  | { id: number; type: "build"; input: BuildInput }
  | { id: number; type: "proof"; userId: string; salt: string };

export type BuilderReply =
  | { id: number; type: "built"; root: RootJson }
  | { id: number; type: "proof"; rootHash: string | null; proof: ProofJson | null }
  | { id: number; type: "error"; message: string };

/** What the service needs of the builder; tests may pass an in-thread one. */
export interface TreeBuilder {
  build(input: BuildInput): Promise<RootJson>;
  /** The user's proof in the latest tree built, with that tree's root hash; null when absent. */
  proof(userId: string, salt: string): Promise<{ rootHash: string; proof: ProofJson } | null>;
  close(): Promise<void>;
}

type Waiter = { resolve: (reply: BuilderReply) => void; reject: (error: Error) => void };

/** The tree builder on a worker thread, started on first use. */
export class WorkerTreeBuilder implements TreeBuilder {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();

  async build(input: BuildInput): Promise<RootJson> {
    const reply = await this.request({ id: 0, type: "build", input });
    if (reply.type !== "built") throw new Error("proof worker: unexpected reply");
    return reply.root;
  }

  async proof(userId: string, salt: string) {
    const reply = await this.request({ id: 0, type: "proof", userId, salt });
    if (reply.type !== "proof") throw new Error("proof worker: unexpected reply");
    return reply.proof && reply.rootHash ? { rootHash: reply.rootHash, proof: reply.proof } : null;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private request(request: BuilderRequest): Promise<BuilderReply> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {
        resolve: (reply) =>
          reply.type === "error" ? reject(new Error(reply.message)) : resolve(reply),
        reject,
      });
      worker.postMessage({ ...request, id });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(serverFile("modules/proof/tree-builder.worker.mjs"));
    worker.unref();
    worker.on("message", (reply: BuilderReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      waiter?.resolve(reply);
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on("error", failAll);
    worker.on("exit", (code) => failAll(new Error(`proof worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
