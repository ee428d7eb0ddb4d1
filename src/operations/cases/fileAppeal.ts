import { defineCaseWrite } from "./caseWrite.js";

export const fileAppeal = defineCaseWrite({
  name: "file_appeal",
  title: "Appeal a verdict",
  description:
    "As the losing party of a Resolved case, appeal once while appealWindowOpen is true, posting the appeal bond (the transaction's value). The case becomes Appealed; five fresh judges are then drawn (assign_judges_random) and their majority is final. The bond goes to the winner of the appeal.",
  path: "/cases/:address/appeal",
  fields: {},
  functionName: "appeal",
  action: "Appeals the verdict, posting the appeal bond",
  concluding: true,
  call: (_i, v) => ({ value: v.appealBond }),
});
