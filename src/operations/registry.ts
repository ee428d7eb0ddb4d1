import { discoverAgents } from "./agents/discoverAgents.js";
import { getAgent } from "./agents/getAgent.js";
import { getAgentHistory } from "./agents/getAgentHistory.js";
import { getInbox } from "./agents/getInbox.js";
import { selfRegisterAgent } from "./agents/selfRegisterAgent.js";
import { assignJudges } from "./cases/assignJudges.js";
import { assignJudgesRandom } from "./cases/assignJudgesRandom.js";
import { fileAppeal } from "./cases/fileAppeal.js";
import { fileCase } from "./cases/fileCase.js";
import { getCase } from "./cases/getCase.js";
import { getCaseTimeline } from "./cases/getCaseTimeline.js";
import { listCases } from "./cases/listCases.js";
import { listKeeperActions } from "./cases/listKeeperActions.js";
import { listPendingCases } from "./cases/listPendingCases.js";
import { resolveAfterDeadline } from "./cases/resolveAfterDeadline.js";
import { respondToCase } from "./cases/respondToCase.js";
import { revealVote } from "./cases/revealVote.js";
import { settleCase } from "./cases/settleCase.js";
import { triggerDefault } from "./cases/triggerDefault.js";
import { voteOnCase } from "./cases/voteOnCase.js";
import { getCourt } from "./courts/getCourt.js";
import { listCourts } from "./courts/listCourts.js";
import { getCaseEvidence } from "./evidence/getCaseEvidence.js";
import { getEvidence } from "./evidence/getEvidence.js";
import { publishEvidence } from "./evidence/publishEvidence.js";
import { submitEvidence } from "./evidence/submitEvidence.js";
import { createJob } from "./jobs/createJob.js";
import { deliverRuling } from "./jobs/deliverRuling.js";
import { disputeJob } from "./jobs/disputeJob.js";
import { finalizeJob } from "./jobs/finalizeJob.js";
import { fundJob } from "./jobs/fundJob.js";
import { getArbitrationCost } from "./jobs/getArbitrationCost.js";
import { getJob } from "./jobs/getJob.js";
import { listJobs } from "./jobs/listJobs.js";
import { submitJob } from "./jobs/submitJob.js";
import { getJudgeHistory } from "./judges/getJudgeHistory.js";
import { getJudgePool } from "./judges/getJudgePool.js";
import { getJudgeStake } from "./judges/getJudgeStake.js";
import { getValidatorStats } from "./judges/getValidatorStats.js";
import { stakeAsJudge } from "./judges/stakeAsJudge.js";
import { unstakeJudge } from "./judges/unstakeJudge.js";
import type { Operation } from "./kernel/operation.js";
import { verifyTransaction } from "./payments/verifyTransaction.js";
import { getHealth } from "./system/getHealth.js";
import { getStatsOverview } from "./system/getStatsOverview.js";
import { createWebhook } from "./webhooks/createWebhook.js";
import { deleteWebhook } from "./webhooks/deleteWebhook.js";
import { getWebhookNonce } from "./webhooks/getWebhookNonce.js";
import { listWebhooks } from "./webhooks/listWebhooks.js";
import { updateWebhook } from "./webhooks/updateWebhook.js";
import { verifyWebhook } from "./webhooks/verifyWebhook.js";
/**
 * Every docket operation. HTTP routes, MCP tools, the OpenAPI document and /docs are generated
 * from this list; adding an operation means adding its file and one line here.
 * Order matters for HTTP: literal paths come before parameterised ones (/agent/discover before /agent/:address,
 * POST /cases/verify-tx before the POST /cases/:address/... writes).
 */
export const operations: Operation[] = [
  getHealth,
  listCases,
  verifyTransaction,
  getCase,
  getCaseTimeline,
  getCaseEvidence,
  getEvidence,
  listPendingCases,
  listKeeperActions,
  getValidatorStats,
  getStatsOverview,
  discoverAgents,
  getInbox,
  getAgentHistory,
  getAgent,
  getJudgePool,
  getJudgeStake,
  getJudgeHistory,
  listCourts,
  getCourt,
  publishEvidence,
  fileCase,
  respondToCase,
  submitEvidence,
  voteOnCase,
  revealVote,
  resolveAfterDeadline,
  triggerDefault,
  fileAppeal,
  settleCase,
  assignJudges,
  assignJudgesRandom,
  stakeAsJudge,
  unstakeJudge,
  selfRegisterAgent,
  // Arbitration (docs/arbitration.md): literal /jobs before /jobs/:id.
  getArbitrationCost,
  listJobs,
  createJob,
  getJob,
  fundJob,
  submitJob,
  disputeJob,
  finalizeJob,
  deliverRuling,
  // Webhooks (docs/webhooks.md): literal /webhooks/nonce and /webhooks/list before /webhooks/:id/delete.
  getWebhookNonce,
  createWebhook,
  listWebhooks,
  verifyWebhook,
  updateWebhook,
  deleteWebhook,
] as unknown as Operation[];
