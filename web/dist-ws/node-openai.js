import{openaiTools,runToolCalls}from"./node-shared-PZRSBYCD.js";export{openaiTools,runToolCalls};
