import { assignJudges } from "./assignJudges.js";
import { assignJudgesRandom } from "./assignJudgesRandom.js";
import { createJob } from "./createJob.js";
import { deliverRuling } from "./deliverRuling.js";
import { discoverAgents } from "./discoverAgents.js";
import { disputeJob } from "./disputeJob.js";
import { fileAppeal } from "./fileAppeal.js";
import { fileCase } from "./fileCase.js";
import { finalizeJob } from "./finalizeJob.js";
import { fundJob } from "./fundJob.js";
import { getAgent } from "./getAgent.js";
import { getArbitrationCost } from "./getArbitrationCost.js";
import { getCase } from "./getCase.js";
import { getCaseEvidence } from "./getCaseEvidence.js";
import { getCourt } from "./getCourt.js";
import { getEvidence } from "./getEvidence.js";
import { getHealth } from "./getHealth.js";
import { getInbox } from "./getInbox.js";
import { getJob } from "./getJob.js";
import { getJudgePool } from "./getJudgePool.js";
import { getJudgeStake } from "./getJudgeStake.js";
import { getStatsOverview } from "./getStatsOverview.js";
import { getValidatorStats } from "./getValidatorStats.js";
import { listCases } from "./listCases.js";
import { listCourts } from "./listCourts.js";
import { listJobs } from "./listJobs.js";
import { listKeeperActions } from "./listKeeperActions.js";
import { listPendingCases } from "./listPendingCases.js";
import type { Operation } from "./operation.js";
import { publishEvidence } from "./publishEvidence.js";
import { resolveAfterDeadline } from "./resolveAfterDeadline.js";
import { respondToCase } from "./respondToCase.js";
import { revealVote } from "./revealVote.js";
import { selfRegisterAgent } from "./selfRegisterAgent.js";
import { settleCase } from "./settleCase.js";
import { stakeAsJudge } from "./stakeAsJudge.js";
import { submitEvidence } from "./submitEvidence.js";
import { submitJob } from "./submitJob.js";
import { triggerDefault } from "./triggerDefault.js";
import { unstakeJudge } from "./unstakeJudge.js";
import { verifyTransaction } from "./verifyTransaction.js";
import { voteOnCase } from "./voteOnCase.js";
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
  getCaseEvidence,
  getEvidence,
  listPendingCases,
  listKeeperActions,
  getValidatorStats,
  getStatsOverview,
  discoverAgents,
  getInbox,
  getAgent,
  getJudgePool,
  getJudgeStake,
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
] as unknown as Operation[];
