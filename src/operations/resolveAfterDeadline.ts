import { defineCaseWrite } from "./caseWrite.js";

export const resolveAfterDeadline = defineCaseWrite({
  name: "resolve_after_deadline",
  title: "Resolve after the deliberation deadline",
  description:
    "Anyone may call this once an Active, Deliberating or Appealed case passes its deliberation deadline without a verdict: the case is Dismissed, stakes and any appeal bond are refunded, and seated judges who never voted are slashed.",
  path: "/cases/:address/resolve-timeout",
  fields: {},
  functionName: "resolveAfterDeadline",
  action: "Dismisses the case after its deliberation deadline",
  concluding: true,
  call: () => ({}),
});
