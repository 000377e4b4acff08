import {
  openaiTools,
  runToolCalls
} from "./node-shared-B27DOBPA.js";
export {
  openaiTools,
  runToolCalls
};
