import { randomUUID } from "node:crypto";
import {
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import type { RequestHandler } from "express";
import type { Operation } from "../operations/kernel/operation.js";
import { agentCard } from "./agentCard.js";
import { routeOf, skillOperations, WORKFLOWS } from "./skills.js";

/** The skills a message asks about: those whose id, name or tags it mentions; all when it names none. */
function askedSkills(text: string) {
  const t = text.toLowerCase();
  const named = WORKFLOWS.filter(
    (w) => t.includes(w.id) || t.includes(w.name.toLowerCase()) || w.tags.some((tag) => t.includes(tag.toLowerCase())),
  );
  return named.length > 0 ? named : WORKFLOWS;
}

/**
 * What docket's A2A endpoint does with a message: it answers, in one message, which MCP tools and
 * HTTP routes do the work the message asks about (docket's work is reads and unsigned
 * transactions, served by its MCP and HTTP doors; it runs no task of its own over A2A).
 */
function directions(operations: readonly Operation[], origin: string) {
  return {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const text = request.userMessage.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join(" ");
      const skills = askedSkills(text).map((w) => {
        const ops = skillOperations(w, operations);
        return { skill: w.id, name: w.name, tools: ops.map((op) => op.name), routes: ops.map(routeOf) };
      });
      const summary = skills.map((s) => `${s.name}: ${s.tools.join(", ")}`).join("; ");
      bus.publish({
        kind: "message",
        data: {
          messageId: randomUUID(),
          contextId: request.contextId,
          taskId: "",
          role: 2, // ROLE_AGENT
          parts: [
            {
              content: {
                $case: "text",
                value: `docket does this through its MCP tools (${origin}/mcp) and HTTP routes (${origin}/openapi.json). ${summary}.`,
              },
              metadata: undefined,
              filename: "",
              mediaType: "text/plain",
            },
            {
              content: { $case: "data", value: { mcp: `${origin}/mcp`, openapi: `${origin}/openapi.json`, skills } },
              metadata: undefined,
              filename: "",
              mediaType: "application/json",
            },
          ],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
      });
      bus.finished();
    },
    async cancelTask(): Promise<void> {},
  };
}

/**
 * docket's A2A JSON-RPC endpoint (the official SDK's handler), for one origin: the card the
 * handler serves names that origin's endpoints, so a handler is made per origin a client used
 * (a few at most: the host names docket is reached by).
 */
export function a2aEndpoint(operations: readonly Operation[]): (origin: string) => RequestHandler {
  const byOrigin = new Map<string, RequestHandler>();
  return (origin) => {
    let handler = byOrigin.get(origin);
    if (!handler) {
      // biome-ignore lint/suspicious/noExplicitAny: the card is the SDK's AgentCard in its JSON form
      const card = agentCard(origin, operations) as any;
      const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), directions(operations, origin));
      handler = jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication });
      if (byOrigin.size < 16) byOrigin.set(origin, handler);
    }
    return handler;
  };
}
