import { defineCaseWrite } from "./caseWrite.js";

export const triggerDefault = defineCaseWrite({
  name: "trigger_default",
  title: "Trigger a default",
  description:
    "Anyone may call this once a Summoned case passes its response deadline unanswered: the case is Defaulted, the plaintiff wins and gets the whole stake back, and the defendant's record gets a no-show.",
  path: "/cases/:address/trigger-default",
  fields: {},
  functionName: "triggerDefault",
  action: "Ends the case by default for the plaintiff",
  concluding: true,
  call: () => ({}),
});
