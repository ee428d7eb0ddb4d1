import { defineCaseWrite } from "./caseWrite.js";

export const resolveAfterDeadline = defineCaseWrite({
  name: "resolve_after_deadline",
  title: "Resolve after the deliberation deadline",
  description:
    "Anyone may call this once an Active, Deliberating or Appealed case passes its deliberation deadline (with hidden votes: the reveal deadline) without a verdict. With hidden votes, if a majority of the panel revealed the same vote, that is the verdict (judges who did not reveal are slashed as no-shows). Otherwise the case is Dismissed: stakes and any appeal bond are refunded, and seated judges who never voted (or revealed) are slashed.",
  path: "/cases/:address/resolve-timeout",
  fields: {},
  functionName: "resolveAfterDeadline",
  action: "Ends the case after its deliberation deadline (the revealed majority's verdict, or a dismissal)",
  concluding: true,
  call: () => ({}),
});
