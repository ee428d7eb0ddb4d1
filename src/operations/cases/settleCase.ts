import { defineCaseWrite } from "./caseWrite.js";

export const settleCase = defineCaseWrite({
  name: "settle_case",
  title: "Settle a verdict",
  description:
    "Anyone may call this once a Resolved case's appeal window has closed unused: the winner is paid the stakes less the court fee, judges who voted with the verdict share the judge reward, and party records are updated. (An appeal verdict settles itself.)",
  path: "/cases/:address/settle",
  fields: {},
  functionName: "settle",
  action: "Pays out the verdict",
  concluding: true,
  call: () => ({}),
});
