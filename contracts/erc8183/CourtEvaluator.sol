// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AgenticCommerce} from "./AgenticCommerce.sol";
import {DocketArbitrator} from "../arbitration/DocketArbitrator.sol";
import {IArbitrableV2} from "../interfaces/IArbitrableV2.sol";
import {IArbitratorV2} from "../interfaces/IArbitratorV2.sol";
import {IAgentWalletIndex} from "../interfaces/IAgentWalletIndex.sol";
import {ValidationRegistry} from "../erc8004/ValidationRegistry.sol";

/// @title An ERC-8183 evaluator backed by docket's court.
/// @notice Make this contract a job's evaluator (on its AgenticCommerce). After the provider
/// submits, a challenge window of `challengeWindow` seconds opens. Nobody disputes: after the
/// window anyone may `finalize`: the job completes (the provider is paid) if the client could have
/// disputed through the whole window, i.e. a dispute filed at the window's last second would still
/// have been ruled before the job's `expiredAt` (`windowEnd + maxDuration < expiredAt`, the court's
/// worst case `DocketArbitrator.maxDuration` read at finalization); otherwise the court could not
/// have judged the work, and silence is no acceptance: `finalize` rejects the job and the client is
/// refunded. The client disputes within the window (`disputeJob`, paying the arbitration cost in
/// the native coin): a case opens through the arbitrator in `courtId`, the client the plaintiff and
/// the provider the defendant (a rejection only ever comes from a ruling, so the provider defends
/// its work); the claim names the job, its description and its deliverable (as a CID: CIDv1, raw,
/// sha2-256 of the digest submitted), the client's evidence CID is the case's evidence. The ruling
/// completes the job (2, the provider won) or rejects it (1, the client won; or 0, the case was
/// dismissed without a verdict: no verdict is no acceptance either, and the escrow goes back where
/// it came from, as ERC-8183 does when no evaluator decides). A dispute that could end after the
/// job's `expiredAt` is refused up front: after expiry anyone could refund the job and the ruling
/// would come too late. When the case ends with a verdict the evaluator also answers the
/// provider's ERC-8004 validation request for the job, if its agent asked one
/// (`validationRequestHash`, filed under the provider's agent): 100 the provider won, 0 it lost,
/// pointing at the case.
contract CourtEvaluator is IArbitrableV2 {
    /// @notice Where a job stands with this evaluator.
    enum Phase {
        /// @dev Not submitted yet (Open or Funded), or not a job of this evaluator.
        Waiting,
        /// @dev Submitted, the challenge window open: the client may dispute.
        InWindow,
        /// @dev Submitted, the window over, undisputed: anyone may finalize (it pays, or refunds: `judgeable`).
        Finalizable,
        /// @dev Disputed: the case is being judged.
        Disputed,
        /// @dev The ruling arrived and was applied.
        Ruled,
        /// @dev Finalized after an undisputed window.
        Finalized,
        /// @dev Terminal without this evaluator (rejected while Open, expired, ...).
        Closed
    }

    struct Evaluation {
        uint256 jobId;
        Phase phase;
        /// @dev When the challenge window closes (0 before submission).
        uint64 windowEndsAt;
        bool disputed;
        uint256 disputeId;
        address caseAddr;
        /// @dev The ruling received (meaningful in Ruled).
        uint8 ruling;
    }

    struct Record {
        bool disputed;
        bool ruled;
        bool finalized;
        uint8 ruling;
        uint256 disputeId;
        address caseAddr;
    }

    /// @notice The tag of the evaluator's ERC-8004 validation responses.
    /// @return The tag.
    string public constant VALIDATION_TAG = "docket-ruling";
    uint256 private constant MAX_CLAIM = 2000;

    /// @notice This contract is not the job's evaluator.
    /// @param jobId The job.
    error NotThisEvaluator(uint256 jobId);
    /// @notice The job is not in Submitted (no work to dispute or accept).
    /// @param jobId The job.
    error NotSubmitted(uint256 jobId);
    /// @notice Only the job's client may dispute it.
    /// @param caller The caller.
    error OnlyClient(address caller);
    /// @notice Only the arbitrator gives rulings.
    /// @param caller The caller.
    error OnlyArbitrator(address caller);
    /// @notice The challenge window is over: the job can only be finalized.
    /// @param endedAt When it closed.
    error ChallengeWindowClosed(uint64 endedAt);
    /// @notice The challenge window is still open: the client may still dispute.
    /// @param endsAt When it closes.
    error ChallengeWindowOpen(uint64 endsAt);
    /// @notice The job was disputed already; its ruling decides it.
    /// @param jobId The job.
    error AlreadyDisputed(uint256 jobId);
    /// @notice The court's worst case ends after the job expires: the ruling could come too late.
    /// @param expiredAt The job's expiry.
    /// @param rulingBy The latest the ruling could come.
    error JobExpiresBeforeRuling(uint256 expiredAt, uint256 rulingBy);
    /// @notice No job was disputed under this dispute id.
    /// @param disputeID The dispute.
    error UnknownDispute(uint256 disputeID);
    /// @notice The dispute's ruling was applied already.
    /// @param disputeID The dispute.
    error AlreadyRuled(uint256 disputeID);
    /// @notice The evidence must be a CID of 1 to 128 bytes.
    error EvidenceInvalid();

    /// @notice The client disputed the job's work: a case opened.
    /// @param jobId The job.
    /// @param disputeId The arbitrator's dispute.
    /// @param caseAddr The case.
    /// @param client The client (plaintiff).
    /// @param provider The provider (defendant).
    /// @param cost What the client paid for it.
    event JobDisputed(
        uint256 indexed jobId,
        uint256 indexed disputeId,
        address indexed caseAddr,
        address client,
        address provider,
        uint256 cost
    );
    /// @notice Nobody disputed within the window: the job was completed, or rejected (the client
    /// refunded) when the court could not have ruled a dispute filed at the window's end before expiry.
    /// @param jobId The job.
    /// @param refunded True: rejected and refunded; false: completed, the provider paid.
    event JobFinalized(uint256 indexed jobId, bool refunded);
    /// @notice The ruling was applied to the job.
    /// @param jobId The job.
    /// @param disputeId The dispute.
    /// @param ruling 0 dismissed, 1 the client won, 2 the provider won.
    /// @param completed Whether the job was completed (else rejected, the client refunded, or already closed).
    event JobRuled(uint256 indexed jobId, uint256 indexed disputeId, uint256 ruling, bool completed);
    /// @notice The evaluator answered the provider's validation request for the job.
    /// @param jobId The job.
    /// @param requestHash The request.
    /// @param response 100 the provider won, 0 it lost.
    event ValidationAnswered(uint256 indexed jobId, bytes32 indexed requestHash, uint8 response);

    /// @notice The job contract this evaluator serves.
    /// @return The AgenticCommerce.
    AgenticCommerce public immutable commerce;
    /// @notice The arbitrator disputes go to.
    /// @return The arbitrator (DocketArbitrator).
    IArbitratorV2 public immutable arbitrator;
    /// @notice The ERC-8004 Validation Registry answered (zero: none).
    /// @return The ValidationRegistry.
    ValidationRegistry public immutable validation;
    /// @notice The agent index that finds the provider's agent (zero: none).
    /// @return The IdentityRegistry's wallet index.
    IAgentWalletIndex public immutable identity;
    /// @notice The court disputes are filed in.
    /// @return The court id (0: the General court).
    uint96 public immutable courtId;
    /// @notice The first round's panel size a dispute asks for.
    /// @return The size (0: the court's).
    uint16 public immutable minJurors;
    /// @notice Seconds after submission during which the client may dispute.
    /// @return The window, in seconds.
    uint64 public immutable challengeWindow;

    mapping(uint256 => Record) private records;
    mapping(uint256 => uint256) private jobOfDisputePlusOne;

    /// @param commerce_ The ERC-8183 job contract.
    /// @param arbitrator_ The arbitrator (DocketArbitrator).
    /// @param validation_ The Validation Registry (zero: none).
    /// @param identity_ The Identity Registry's wallet index (zero: none).
    /// @param courtId_ The court (0: the General court).
    /// @param minJurors_ The first round's panel size asked for (0: the court's).
    /// @param challengeWindow_ The challenge window in seconds.
    constructor(
        AgenticCommerce commerce_,
        IArbitratorV2 arbitrator_,
        ValidationRegistry validation_,
        IAgentWalletIndex identity_,
        uint96 courtId_,
        uint16 minJurors_,
        uint64 challengeWindow_
    ) {
        commerce = commerce_;
        arbitrator = arbitrator_;
        validation = validation_;
        identity = identity_;
        courtId = courtId_;
        minJurors = minJurors_;
        challengeWindow = challengeWindow_;
    }

    // ------------------------------------------------------------------ writes

    /// @notice The client disputes the submitted work within the challenge window, paying
    /// `arbitrationCost()` (exactly): a case opens, client against provider.
    /// @param jobId The job.
    /// @param evidence The client's evidence (a CID, 1 to 128 bytes): why the work falls short.
    /// @return disputeId The arbitrator's dispute.
    function disputeJob(uint256 jobId, string calldata evidence) external payable returns (uint256 disputeId) {
        AgenticCommerce.Job memory j = _submitted(jobId);
        if (msg.sender != j.client) revert OnlyClient(msg.sender);
        Record storage r = records[jobId];
        if (r.disputed) revert AlreadyDisputed(jobId);
        uint64 ends = j.submittedAt + challengeWindow;
        if (block.timestamp > ends) revert ChallengeWindowClosed(ends);
        if (bytes(evidence).length == 0 || bytes(evidence).length > 128) revert EvidenceInvalid();
        bytes memory short = _shortExtraData();
        uint256 rulingBy = block.timestamp + DocketArbitrator(address(arbitrator)).maxDuration(short);
        if (rulingBy >= j.expiredAt) revert JobExpiresBeforeRuling(j.expiredAt, rulingBy);
        r.disputed = true;
        bytes memory extraData =
            abi.encode(uint256(courtId), uint256(minJurors), uint256(1), j.client, j.provider, _claim(j), evidence);
        disputeId = arbitrator.createDispute{value: msg.value}(2, extraData);
        r.disputeId = disputeId;
        jobOfDisputePlusOne[disputeId] = jobId + 1;
        address caseAddr = DocketArbitrator(address(arbitrator)).getDispute(disputeId).caseAddr;
        r.caseAddr = caseAddr;
        emit JobDisputed(jobId, disputeId, caseAddr, j.client, j.provider, msg.value);
    }

    /// @notice After an undisputed challenge window, anyone settles the job: it completes (the
    /// provider is paid) when a dispute filed at the window's last second could still have been ruled
    /// before the job expires; else it is rejected (the client refunded): the court could not have judged it.
    /// @param jobId The job.
    function finalize(uint256 jobId) external {
        AgenticCommerce.Job memory j = _submitted(jobId);
        Record storage r = records[jobId];
        if (r.disputed) revert AlreadyDisputed(jobId);
        uint64 ends = j.submittedAt + challengeWindow;
        if (block.timestamp <= ends) revert ChallengeWindowOpen(ends);
        r.finalized = true;
        bool refunded = !_judgeable(j);
        emit JobFinalized(jobId, refunded);
        if (refunded) commerce.reject(jobId, bytes32(0), "");
        else commerce.complete(jobId, bytes32(0), "");
    }

    /// @inheritdoc IArbitrableV2
    function rule(uint256 disputeID, uint256 ruling) external {
        if (msg.sender != address(arbitrator)) revert OnlyArbitrator(msg.sender);
        uint256 jobPlusOne = jobOfDisputePlusOne[disputeID];
        if (jobPlusOne == 0) revert UnknownDispute(disputeID);
        uint256 jobId = jobPlusOne - 1;
        Record storage r = records[jobId];
        if (r.ruled) revert AlreadyRuled(disputeID);
        r.ruled = true;
        r.ruling = uint8(ruling);
        emit Ruling(arbitrator, disputeID, ruling);
        AgenticCommerce.Job memory j = commerce.getJob(jobId);
        bool completed = false;
        // A job refunded after expiry meanwhile keeps its end; the ruling is only recorded. Only a
        // verdict for the provider pays it: a dismissal (0) is no acceptance, the client is refunded.
        if (j.status == AgenticCommerce.JobStatus.Submitted) {
            bytes32 reason = bytes32(uint256(uint160(r.caseAddr)));
            if (ruling == 2) {
                completed = true;
                commerce.complete(jobId, reason, "");
            } else {
                commerce.reject(jobId, reason, "");
            }
        }
        emit JobRuled(jobId, disputeID, ruling, completed);
        if (ruling != 0) _answerValidation(jobId, j.provider, r.caseAddr, ruling == 2 ? 100 : 0);
    }

    // ------------------------------------------------------------------ views

    /// @notice What a dispute costs now (the arbitrator's `arbitrationCost` for this evaluator's court and panel).
    /// @return The cost in the native coin.
    function arbitrationCost() external view returns (uint256) {
        return arbitrator.arbitrationCost(_shortExtraData());
    }

    /// @notice The latest a job disputed now would have its ruling (now + the court's worst case).
    /// @return Unix seconds.
    function rulingDeadline() external view returns (uint256) {
        return block.timestamp + DocketArbitrator(address(arbitrator)).maxDuration(_shortExtraData());
    }

    /// @notice Whether `finalize` would pay the provider (true) or refund the client (false): whether
    /// a dispute filed at the end of the job's challenge window could be ruled before it expires.
    /// @param jobId The job (submitted; before submission, as if submitted now).
    /// @return True: the court can judge the whole window, silence completes the job.
    function judgeable(uint256 jobId) external view returns (bool) {
        AgenticCommerce.Job memory j = commerce.getJob(jobId);
        if (j.submittedAt == 0) j.submittedAt = uint64(block.timestamp);
        return _judgeable(j);
    }

    /// @notice Where a job stands with this evaluator.
    /// @param jobId The job.
    /// @return e The evaluation.
    function getEvaluation(uint256 jobId) public view returns (Evaluation memory e) {
        AgenticCommerce.Job memory j = commerce.getJob(jobId);
        Record storage r = records[jobId];
        e.jobId = jobId;
        e.disputed = r.disputed;
        e.disputeId = r.disputeId;
        e.caseAddr = r.caseAddr;
        e.ruling = r.ruling;
        if (j.submittedAt != 0) e.windowEndsAt = j.submittedAt + challengeWindow;
        if (j.evaluator != address(this)) e.phase = Phase.Waiting;
        else if (r.ruled) e.phase = Phase.Ruled;
        else if (r.finalized) e.phase = Phase.Finalized;
        else if (r.disputed) e.phase = Phase.Disputed;
        else if (j.status == AgenticCommerce.JobStatus.Submitted) {
            e.phase = block.timestamp <= e.windowEndsAt ? Phase.InWindow : Phase.Finalizable;
        } else if (j.status == AgenticCommerce.JobStatus.Open || j.status == AgenticCommerce.JobStatus.Funded) {
            e.phase = Phase.Waiting;
        } else {
            e.phase = Phase.Closed;
        }
    }

    /// @notice The job a dispute is about.
    /// @param disputeID The dispute.
    /// @return exists False for a dispute this evaluator did not create.
    /// @return jobId The job.
    function jobOfDispute(uint256 disputeID) external view returns (bool exists, uint256 jobId) {
        uint256 p = jobOfDisputePlusOne[disputeID];
        return (p != 0, p == 0 ? 0 : p - 1);
    }

    /// @notice The request hash under which the provider's agent `agentId` asks this evaluator (the
    /// validator) to validate its work on `jobId`: keccak256(abi.encode(chainid, commerce, jobId, agentId)).
    /// The registry keys requests by agent and hash, so another agent filing this hash first blocks nothing.
    /// @param jobId The job.
    /// @param agentId The provider's agent (ERC-8004).
    /// @return The request hash.
    function validationRequestHash(uint256 jobId, uint256 agentId) public view returns (bytes32) {
        return keccak256(abi.encode(block.chainid, address(commerce), jobId, agentId));
    }

    /// @notice The job's deliverable as the CID the case names (CIDv1, raw, sha2-256 of the digest).
    /// @param deliverable The job's deliverable digest.
    /// @return The CID, base32 ("bafkrei...").
    function deliverableCid(bytes32 deliverable) public pure returns (string memory) {
        return _base32Cid(deliverable);
    }

    // ------------------------------------------------------------------ internal

    function _submitted(uint256 jobId) private view returns (AgenticCommerce.Job memory j) {
        j = commerce.getJob(jobId);
        if (j.evaluator != address(this)) revert NotThisEvaluator(jobId);
        if (j.status != AgenticCommerce.JobStatus.Submitted) revert NotSubmitted(jobId);
    }

    /// @dev Whether a dispute filed at the window's last second would be ruled before expiry (the
    /// same test `disputeJob` applies): else the court cannot judge the whole window.
    function _judgeable(AgenticCommerce.Job memory j) private view returns (bool) {
        uint256 ends = uint256(j.submittedAt) + challengeWindow;
        return ends + DocketArbitrator(address(arbitrator)).maxDuration(_shortExtraData()) < j.expiredAt;
    }

    function _shortExtraData() private view returns (bytes memory) {
        return abi.encode(uint256(courtId), uint256(minJurors));
    }

    /// @dev The case's claim: the job, its deliverable's CID and its description, at most 2000 bytes
    /// (cut at a UTF-8 character boundary).
    function _claim(AgenticCommerce.Job memory j) private view returns (string memory) {
        bytes memory head = abi.encodePacked(
            "ERC-8183 job ",
            _decimal(j.id),
            " on ",
            _hexAddress(address(commerce)),
            ": the client disputes the provider's deliverable ",
            _base32Cid(j.deliverable),
            ". Job description: "
        );
        bytes memory desc = bytes(j.description);
        uint256 room = MAX_CLAIM - head.length;
        if (desc.length > room) {
            uint256 cut = room;
            while (cut > 0 && (uint8(desc[cut]) & 0xC0) == 0x80) cut--;
            assembly {
                mstore(desc, cut)
            }
        }
        return string(bytes.concat(head, desc));
    }

    /// @dev Answers the provider agent's request for this job, if one exists for this validator;
    /// any failure is swallowed: the ruling never waits on the registry.
    function _answerValidation(uint256 jobId, address provider, address caseAddr, uint8 response) private {
        if (address(validation) == address(0) || address(identity) == address(0)) return;
        uint256 agentId;
        try identity.agentIdOf(provider) returns (uint256 a) {
            agentId = a;
        } catch {
            return;
        }
        if (agentId == 0) return;
        bytes32 requestHash = validationRequestHash(jobId, agentId);
        // The request the provider's agent filed under this hash (another agent's, a squatter's, is not it).
        try validation.getAgentValidationStatus(agentId, requestHash) returns (
            address validator, uint256, uint8, bytes32, string memory, uint256
        ) {
            if (validator != address(this)) return;
        } catch {
            return;
        }
        string memory uri = string.concat("eip155:", _decimal(block.chainid), ":", _hexAddress(caseAddr));
        try validation.validationResponseFor(
            agentId, requestHash, response, uri, bytes32(uint256(uint160(caseAddr))), VALIDATION_TAG
        ) {
            emit ValidationAnswered(jobId, requestHash, response);
        } catch {}
    }

    function _decimal(uint256 v) private pure returns (string memory) {
        if (v == 0) return "0";
        uint256 len = 0;
        for (uint256 t = v; t != 0; t /= 10) len++;
        bytes memory out = new bytes(len);
        for (; v != 0; v /= 10) out[--len] = bytes1(uint8(48 + (v % 10)));
        return string(out);
    }

    function _hexAddress(address a) private pure returns (string memory) {
        bytes memory out = new bytes(42);
        out[0] = "0";
        out[1] = "x";
        uint160 v = uint160(a);
        for (uint256 i = 41; i > 1; i--) {
            out[i] = bytes1(bytes16("0123456789abcdef")[v & 15]);
            v >>= 4;
        }
        return string(out);
    }

    /// @dev "b" + base32 (RFC 4648, lower case, no padding) of 0x01 0x55 0x12 0x20 ‖ digest: the
    /// CIDv1 of a raw block whose sha2-256 is `digest`.
    function _base32Cid(bytes32 digest) private pure returns (string memory) {
        bytes memory data = bytes.concat(hex"01551220", digest);
        bytes memory alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        bytes memory out = new bytes(1 + (data.length * 8 + 4) / 5);
        out[0] = "b";
        uint256 buffer = 0;
        uint256 bits = 0;
        uint256 o = 1;
        for (uint256 i = 0; i < data.length; i++) {
            buffer = (buffer << 8) | uint8(data[i]);
            bits += 8;
            while (bits >= 5) {
                bits -= 5;
                out[o++] = alphabet[(buffer >> bits) & 31];
            }
        }
        if (bits > 0) out[o++] = alphabet[(buffer << (5 - bits)) & 31];
        return string(out);
    }
}
