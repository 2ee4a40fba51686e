export { estimateProgress } from './estimate-progress.js';
export type { RoundtripPhase } from './estimate-progress.js';
export { computeStepRanges } from './step-ranges.js';
export type { StepRange, StepRangeOptions, WeightedStep } from './step-ranges.js';
export { mapProgressToRange } from './map-progress-to-range.js';
export type { ProgressRange } from './map-progress-to-range.js';
export { MAX_CONFIG_BYTES, MAX_FALLBACK_STEPS, loadProgressConfig, progressConfigSchema } from './progress-config.js';
export type { ProgressConfig } from './progress-config.js';
export { MAX_WORKFLOW_BLOCK, MAX_WORKFLOW_DEPTH, MAX_WORKFLOW_LENGTH, parseWorkflow, workflowStepPercent } from './workflow.js';
export type { WorkflowCall, WorkflowStep } from './workflow.js';
export { PROGRESS_PROMPT_INSTRUCTIONS, extractModelProgress } from './model-progress.js';
export { ProgressTextFilter, stripModelProgress } from './model-progress-text.js';
export { MAX_PROGRESS_CANDIDATE } from './json-braces.js';
export type { ExtractModelProgressOptions, ModelProgress } from './model-progress.js';
export { ProgressTracker } from './progress-tracker.js';
export type { ChildTrackerOptions, PlanUpdate, ProgressEmission, ProgressTrackerOptions } from './progress-tracker.js';
export { MAX_STATE_STEPS, progressTrackerStateSchema } from './progress-tracker-state.js';
export type { ProgressTrackerState } from './progress-tracker-state.js';
export { taskHistorySchema } from './task-history.js';
export type { TaskHistory, TaskHistoryRun } from './task-history.js';
export { EstimatorError } from './estimator-error.js';
export type { EstimatorErrorCode } from './estimator-error.js';
export { DEFAULT_STALL_THRESHOLDS, createStallDetector } from './stall/stall-detector.js';
export type {
  StallChange,
  StallClearedBody,
  StallDetectedBody,
  StallDetector,
  StallDetectorOptions,
  StallThresholds,
  StallToolCall,
} from './stall/stall-detector.js';
export { stallFingerprint } from './stall/fingerprint.js';
export { stallSubject } from './stall/stall-subject.js';
export { replayProgress } from './replay-progress.js';
export { ETA_CALIBRATION, etaCalibrationSchema } from './eta-calibration.js';
export { PLAN_TUNING, planTuningSchema } from './plan-progress.js';
export type { PlanTuning } from './plan-progress.js';
export { COLD_START_TUNING, coldStartTuningSchema } from './cold-start.js';
export type { ColdStartTuning } from './cold-start.js';
export type { EtaCalibration, EtaCalibrationBin, EtaEvidence } from './eta-calibration.js';
export type { ReplayProgressOptions, ReplayedProgress } from './replay-progress.js';
