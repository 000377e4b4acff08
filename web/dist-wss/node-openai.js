import{openaiTools,runToolCalls}from"./node-shared-6N577GSQ.js";export{openaiTools,runToolCalls};
