/**
 * The cache keys a mined court event makes stale. Every case change is reported by the factory's
 * CaseChanged, and every judge or party record change by the registry, so two addresses cover all.
 */
export function keysForLog(log: { eventName?: string; args?: unknown }): string[] {
  const a = (log.args ?? {}) as Record<string, string | undefined>;
  switch (log.eventName) {
    case "CaseFiled":
      return ["cases:*", "stats"];
    case "CaseChanged":
      return [`case:${a.caseAddr}`, `evidence:${a.caseAddr}`, "pending:*", "stats"];
    case "AgentRegistered":
    case "AgentUpdated":
      return ["discover:*", `agent:${a.agent}`, "stats"];
    case "JudgeStaked":
    case "JudgeUnstaked":
    case "JudgeSlashed":
    case "JudgeRewarded":
    case "JudgeRecordChanged":
      return [`judgestake:${a.judge}`, `validator:${a.judge}`, `agent:${a.judge}`, "judgepool", "discover:*", "stats"];
    case "PartyRecordChanged":
      return [`agent:${a.party}`, "discover:*"];
    case "TreasuryWithdrawn":
      return ["stats"];
    case "FilingChanged":
      // The fee a 402 quotes comes from the cached court parameters.
      return ["params", "stats"];
    default:
      return [];
  }
}
