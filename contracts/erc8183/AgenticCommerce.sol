// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Paging} from "../libraries/Paging.sol";
import {IERC20Escrow} from "../interfaces/IERC20Escrow.sol";

/// @title ERC-8183 Agentic Commerce: a job escrow with an evaluator.
/// @notice A reference job contract written to ERC-8183 (a non-hooked kernel: `hook` must be zero).
/// The client creates a job (provider, evaluator, expiry, description), the client or provider sets
/// the budget, the client funds it (the budget in `token` moves into this contract), the provider
/// submits a deliverable, and the evaluator alone completes (the provider is paid) or rejects (the
/// client is refunded) it; after `expiredAt` anyone may refund a job that is still Funded or
/// Submitted. No platform fee. Beyond the standard: `submittedAt` (when the deliverable came, what a
/// challenge window counts from) and paged views for a gateway.
contract AgenticCommerce {
    enum JobStatus {
        Open,
        Funded,
        Submitted,
        Completed,
        Rejected,
        Expired
    }

    struct Job {
        uint256 id;
        address client;
        address provider;
        address evaluator;
        address hook;
        string description;
        uint256 budget;
        uint256 expiredAt;
        JobStatus status;
        bytes32 deliverable;
        uint64 submittedAt;
        /// @dev The reason given with complete or reject (zero if none, or expired).
        bytes32 reason;
    }

    /// @notice The longest description a job may have, in bytes.
    /// @return The length.
    uint256 public constant MAX_DESCRIPTION_LENGTH = 2000;

    /// @notice No job has this id.
    /// @param jobId The id given.
    error JobNotFound(uint256 jobId);
    /// @notice The job is not in a status that allows this.
    /// @param jobId The job.
    /// @param status Its status.
    error WrongStatus(uint256 jobId, JobStatus status);
    /// @notice Only the job's client may do this.
    /// @param caller The caller.
    error NotClient(address caller);
    /// @notice Only the job's provider may do this.
    /// @param caller The caller.
    error NotProvider(address caller);
    /// @notice Only the job's evaluator may do this.
    /// @param caller The caller.
    error NotEvaluator(address caller);
    /// @notice Only the job's client or provider may do this.
    /// @param caller The caller.
    error NotClientOrProvider(address caller);
    /// @notice A job needs an evaluator (not zero).
    error InvalidEvaluator();
    /// @notice The provider may not be zero.
    error InvalidProvider();
    /// @notice The job has a provider already.
    /// @param provider Its provider.
    error ProviderAlreadySet(address provider);
    /// @notice A job is funded only once it has a provider.
    error ProviderNotSet();
    /// @notice The expiry must be in the future.
    /// @param expiredAt The expiry given.
    error ExpiryNotInFuture(uint256 expiredAt);
    /// @notice This kernel has no hooks: `hook` must be zero.
    /// @param hook The hook given.
    error HooksUnsupported(address hook);
    /// @notice The description is too long.
    /// @param max The longest allowed, in bytes.
    error DescriptionTooLong(uint256 max);
    /// @notice A job with a zero budget cannot be funded.
    error BudgetZero();
    /// @notice The budget is not the one the client expects (it changed since it looked).
    /// @param budget The job's budget.
    /// @param expected The budget the client named.
    error BudgetMismatch(uint256 budget, uint256 expected);
    /// @notice The job has not expired yet.
    /// @param expiredAt When it expires.
    error NotExpired(uint256 expiredAt);
    /// @notice A token transfer failed (or moved a different amount than asked).
    error TransferFailed();
    /// @notice A call re-entered the escrow.
    error Reentrancy();

    /// @notice A job was created (Open).
    /// @param jobId The job.
    /// @param client Who created it and pays.
    /// @param provider Who does the work (zero: set later).
    /// @param evaluator Who completes or rejects it.
    /// @param expiredAt After this time anyone may refund a funded job.
    event JobCreated(
        uint256 indexed jobId, address indexed client, address indexed provider, address evaluator, uint256 expiredAt
    );
    /// @notice The client set the job's provider.
    /// @param jobId The job.
    /// @param provider The provider.
    event ProviderSet(uint256 indexed jobId, address indexed provider);
    /// @notice The client or provider set the budget.
    /// @param jobId The job.
    /// @param amount The budget, in the token's units.
    event BudgetSet(uint256 indexed jobId, uint256 amount);
    /// @notice The client funded the job: the budget is in escrow.
    /// @param jobId The job.
    /// @param client The client.
    /// @param amount The amount escrowed.
    event JobFunded(uint256 indexed jobId, address indexed client, uint256 amount);
    /// @notice The provider submitted its work.
    /// @param jobId The job.
    /// @param provider The provider.
    /// @param deliverable The reference to the work (a hash, or a CID's digest).
    event JobSubmitted(uint256 indexed jobId, address indexed provider, bytes32 deliverable);
    /// @notice The evaluator completed the job.
    /// @param jobId The job.
    /// @param evaluator The evaluator.
    /// @param reason The attestation given (e.g. a hash of evidence, a case).
    event JobCompleted(uint256 indexed jobId, address indexed evaluator, bytes32 reason);
    /// @notice The job was rejected (by the client while Open, else by the evaluator).
    /// @param jobId The job.
    /// @param rejector Who rejected it.
    /// @param reason The reason given.
    event JobRejected(uint256 indexed jobId, address indexed rejector, bytes32 reason);
    /// @notice The job expired and its escrow was refunded.
    /// @param jobId The job.
    event JobExpired(uint256 indexed jobId);
    /// @notice The escrow was paid to the provider.
    /// @param jobId The job.
    /// @param provider The provider.
    /// @param amount The amount paid.
    event PaymentReleased(uint256 indexed jobId, address indexed provider, uint256 amount);
    /// @notice The escrow was refunded to the client.
    /// @param jobId The job.
    /// @param client The client.
    /// @param amount The amount refunded.
    event Refunded(uint256 indexed jobId, address indexed client, uint256 amount);

    /// @notice The payment token (one per contract).
    /// @return The ERC-20.
    IERC20Escrow public immutable token;
    uint256 private jobCount_;
    mapping(uint256 => Job) private jobs;
    bool private locked;

    /// @param token_ The ERC-20 every budget is paid in.
    constructor(IERC20Escrow token_) {
        token = token_;
    }

    modifier nonReentrant() {
        if (locked) revert Reentrancy();
        locked = true;
        _;
        locked = false;
    }

    /// @notice Creates a job in Open; the caller is its client.
    /// @param provider The provider, or zero to set it later with `setProvider`.
    /// @param evaluator Who alone completes or rejects the job once submitted (non-zero).
    /// @param expiredAt When the job expires (in the future).
    /// @param description The job's brief (at most 2000 bytes; a CID of a longer one).
    /// @param hook Must be zero: this kernel has no hooks.
    /// @return jobId The new job's id (from 1).
    function createJob(
        address provider,
        address evaluator,
        uint256 expiredAt,
        string calldata description,
        address hook
    ) external returns (uint256 jobId) {
        if (evaluator == address(0)) revert InvalidEvaluator();
        if (expiredAt <= block.timestamp) revert ExpiryNotInFuture(expiredAt);
        if (hook != address(0)) revert HooksUnsupported(hook);
        if (bytes(description).length > MAX_DESCRIPTION_LENGTH) revert DescriptionTooLong(MAX_DESCRIPTION_LENGTH);
        jobId = ++jobCount_;
        Job storage j = jobs[jobId];
        j.id = jobId;
        j.client = msg.sender;
        j.provider = provider;
        j.evaluator = evaluator;
        j.description = description;
        j.expiredAt = expiredAt;
        emit JobCreated(jobId, msg.sender, provider, evaluator, expiredAt);
    }

    /// @notice The client names the provider of a job created without one (Open only).
    /// @param jobId The job.
    /// @param provider The provider (non-zero).
    /// @param optParams Ignored (no hooks).
    function setProvider(uint256 jobId, address provider, bytes calldata optParams) external {
        optParams;
        Job storage j = _job(jobId);
        _status(j, JobStatus.Open);
        if (msg.sender != j.client) revert NotClient(msg.sender);
        if (j.provider != address(0)) revert ProviderAlreadySet(j.provider);
        if (provider == address(0)) revert InvalidProvider();
        j.provider = provider;
        emit ProviderSet(jobId, provider);
    }

    /// @notice The client or the provider sets (proposes) the budget (Open only).
    /// @param jobId The job.
    /// @param amount The budget, in the token's units.
    /// @param optParams Ignored (no hooks).
    function setBudget(uint256 jobId, uint256 amount, bytes calldata optParams) external {
        optParams;
        Job storage j = _job(jobId);
        _status(j, JobStatus.Open);
        if (msg.sender != j.client && msg.sender != j.provider) revert NotClientOrProvider(msg.sender);
        j.budget = amount;
        emit BudgetSet(jobId, amount);
    }

    /// @notice The client funds the job: `expectedBudget` (which must equal the budget, so a late
    /// change cannot front-run it) moves from the client into escrow (approve the token first).
    /// @param jobId The job.
    /// @param expectedBudget The budget the client agreed to.
    /// @param optParams Ignored (no hooks).
    function fund(uint256 jobId, uint256 expectedBudget, bytes calldata optParams) external nonReentrant {
        optParams;
        Job storage j = _job(jobId);
        _status(j, JobStatus.Open);
        if (msg.sender != j.client) revert NotClient(msg.sender);
        if (j.budget == 0) revert BudgetZero();
        if (j.provider == address(0)) revert ProviderNotSet();
        if (j.budget != expectedBudget) revert BudgetMismatch(j.budget, expectedBudget);
        j.status = JobStatus.Funded;
        emit JobFunded(jobId, msg.sender, expectedBudget);
        uint256 before = token.balanceOf(address(this));
        if (!token.transferFrom(msg.sender, address(this), expectedBudget)) revert TransferFailed();
        // A token that takes a cut would leave the escrow short of what it owes.
        if (token.balanceOf(address(this)) - before != expectedBudget) revert TransferFailed();
    }

    /// @notice The provider submits its work (Funded only).
    /// @param jobId The job.
    /// @param deliverable A reference to the work: a hash, or the sha2-256 digest of its CID.
    /// @param optParams Ignored (no hooks).
    function submit(uint256 jobId, bytes32 deliverable, bytes calldata optParams) external {
        optParams;
        Job storage j = _job(jobId);
        _status(j, JobStatus.Funded);
        if (msg.sender != j.provider) revert NotProvider(msg.sender);
        j.status = JobStatus.Submitted;
        j.deliverable = deliverable;
        j.submittedAt = uint64(block.timestamp);
        emit JobSubmitted(jobId, msg.sender, deliverable);
    }

    /// @notice The evaluator completes a submitted job: the escrow goes to the provider.
    /// @param jobId The job.
    /// @param reason An attestation (zero for none).
    /// @param optParams Ignored (no hooks).
    function complete(uint256 jobId, bytes32 reason, bytes calldata optParams) external nonReentrant {
        optParams;
        Job storage j = _job(jobId);
        _status(j, JobStatus.Submitted);
        if (msg.sender != j.evaluator) revert NotEvaluator(msg.sender);
        j.status = JobStatus.Completed;
        j.reason = reason;
        emit JobCompleted(jobId, msg.sender, reason);
        emit PaymentReleased(jobId, j.provider, j.budget);
        _send(j.provider, j.budget);
    }

    /// @notice Rejects a job: the client while it is Open; the evaluator while Funded or Submitted
    /// (then the escrow goes back to the client).
    /// @param jobId The job.
    /// @param reason The reason (zero for none).
    /// @param optParams Ignored (no hooks).
    function reject(uint256 jobId, bytes32 reason, bytes calldata optParams) external nonReentrant {
        optParams;
        Job storage j = _job(jobId);
        JobStatus s = j.status;
        if (s == JobStatus.Open) {
            if (msg.sender != j.client) revert NotClient(msg.sender);
        } else if (s == JobStatus.Funded || s == JobStatus.Submitted) {
            if (msg.sender != j.evaluator) revert NotEvaluator(msg.sender);
        } else {
            revert WrongStatus(jobId, s);
        }
        j.status = JobStatus.Rejected;
        j.reason = reason;
        emit JobRejected(jobId, msg.sender, reason);
        if (s != JobStatus.Open) _refund(j);
    }

    /// @notice After `expiredAt`, anyone refunds a job still Funded or Submitted to its client.
    /// @param jobId The job.
    function claimRefund(uint256 jobId) external nonReentrant {
        Job storage j = _job(jobId);
        if (j.status != JobStatus.Funded && j.status != JobStatus.Submitted) revert WrongStatus(jobId, j.status);
        if (block.timestamp < j.expiredAt) revert NotExpired(j.expiredAt);
        j.status = JobStatus.Expired;
        emit JobExpired(jobId);
        _refund(j);
    }

    /// @notice One job.
    /// @param jobId The job.
    /// @return The job (reverts JobNotFound for an unknown id).
    function getJob(uint256 jobId) external view returns (Job memory) {
        return _job(jobId);
    }

    /// @notice A page of jobs, newest first, and how many there are.
    /// @param offset How many of the newest to skip.
    /// @param limit At most this many.
    /// @return total Jobs created so far (ids 1..total).
    /// @return page The jobs.
    function getJobs(uint256 offset, uint256 limit) external view returns (uint256 total, Job[] memory page) {
        total = jobCount_;
        uint256 n = Paging.length(total, offset, limit);
        page = new Job[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = jobs[total - offset - i];
        }
    }

    /// @notice How many jobs were created (their ids run from 1).
    /// @return The count.
    function jobCount() external view returns (uint256) {
        return jobCount_;
    }

    function _job(uint256 jobId) private view returns (Job storage j) {
        j = jobs[jobId];
        if (j.client == address(0)) revert JobNotFound(jobId);
    }

    function _status(Job storage j, JobStatus expected) private view {
        if (j.status != expected) revert WrongStatus(j.id, j.status);
    }

    function _refund(Job storage j) private {
        emit Refunded(j.id, j.client, j.budget);
        _send(j.client, j.budget);
    }

    function _send(address to, uint256 amount) private {
        if (!token.transfer(to, amount)) revert TransferFailed();
    }
}
