import type { Migration } from "kysely/migration";
import * as courtEvents from "./0001_court_events.js";
import * as cases from "./0002_cases.js";
import * as due from "./0004_due.js";
import * as retention from "./0005_retention.js";
import * as jobs from "./0006_jobs.js";
import * as openParticipants from "./0007_open_participants.js";
import * as webhooks from "./0008_webhooks.js";

/**
 * Every migration of the index, by name, in order: imported, not read from a folder, so they ship
 * inside the package as code and run the same from src/ (tsx) and dist/ (compiled). A new one is
 * a new file here with the next number; a shipped one is never edited.
 */
export const MIGRATIONS: Record<string, Migration> = {
  "0001_court_events": courtEvents,
  "0002_cases": cases,
  "0004_due": due,
  "0005_retention": retention,
  "0006_jobs": jobs,
  "0007_open_participants": openParticipants,
  "0008_webhooks": webhooks,
};
