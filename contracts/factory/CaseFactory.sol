// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, CaseTerms, DisputeFiling, FeeAuthorization} from "../interfaces/CourtTypes.sol";
import {ICaseCloseHook} from "../interfaces/ICaseCloseHook.sol";
import {IDrawEntropy} from "../interfaces/IDrawEntropy.sol";
import {DisputeCase} from "../case/DisputeCase.sol";
import {CourtRegistry} from "../courts/CourtRegistry.sol";
import {CaseIndex} from "./CaseIndex.sol";
import {CaseRecords} from "./CaseRecords.sol";
import {FactoryBase} from "./FactoryBase.sol";
import {FilingFees} from "./FilingFees.sol";
import {JudgeSeating} from "./JudgeSeating.sol";
import {TokenFees} from "./TokenFees.sol";

/// @title Files cases and seats their judges; the gateway's single place to read cases from.
/// @notice Each case is a minimal clone (EIP-1167) of one DisputeCase implementation, so every case
/// has its own address. A plaintiff files with a paid filing fee's reference (`fileCase`; the fee in
/// the native coin, FilingFees) or pays the fee in an EIP-3009 token inside the filing
/// (`fileCaseWithAuthorization`, TokenFees); the arbitrator files disputes (`fileDispute`). Each
/// case copies its court's terms at filing. The factory is one contract composed of parts, each
/// in its own file: FactoryBase (owner, registry), FilingFees and TokenFees (the fee), CaseIndex
/// (every index of cases and the views over them), CaseRecords (who is on record, the reporter
/// told), JudgeSeating (draws and hand-seating); this file holds the filing itself.
contract CaseFactory is TokenFees, CaseRecords, JudgeSeating {
    /// @notice The longest claim a case may have, in bytes.
    /// @return The length.
    uint256 public constant MAX_CLAIM_LENGTH = 2000;
    /// @notice The longest evidence reference (an IPFS CID) a filing may give, in bytes.
    /// @return The length.
    uint256 public constant MAX_HASH_LENGTH = 128;
    /// @notice How many case states there are (`getStats().byState` has one count each).
    /// @return The count.
    uint256 public constant STATE_COUNT = 8;

    /// @notice The defendant may be neither the zero address nor the plaintiff.
    error InvalidDefendant();
    /// @notice A claim may not be empty.
    error ClaimRequired();
    /// @notice The claim is too long.
    /// @param max The longest allowed, in bytes.
    error ClaimTooLong(uint256 max);
    /// @notice The evidence reference must be 1 to MAX_HASH_LENGTH bytes.
    error EvidenceHashInvalid();
    /// @notice The stake sent is below the court's minimum party stake.
    /// @param minimum The minimum.
    /// @param sent What was sent.
    error StakeBelowMinimum(uint256 minimum, uint256 sent);
    /// @notice Creating the case's clone failed.
    error CloneFailed();
    /// @notice Only the arbitrator named with `setArbitrator` may file disputes.
    error OnlyArbitrator();

    /// @notice A case was filed.
    /// @param caseAddr The new case.
    /// @param plaintiff Who filed it.
    /// @param defendant Against whom.
    /// @param paymentRef The filing fee's reference.
    /// @param stake The plaintiff's stake.
    /// @param courtId The court it was filed in.
    event CaseFiled(
        address indexed caseAddr,
        address indexed plaintiff,
        address indexed defendant,
        bytes32 paymentRef,
        uint256 stake,
        uint96 courtId
    );
    /// @notice The owner named the arbitrator that may file disputes (zero: none).
    /// @param arbitrator The arbitrator (DocketArbitrator).
    event ArbitratorChanged(address arbitrator);

    struct Params {
        address owner;
        address registry;
        address implementation;
        address entropy;
        address feeRecipient;
        uint256 filingFee;
        /// @dev The General court's minimum judge stake and terms (each court's: the registry's getCourt).
        uint256 minJudgeStake;
        CaseTerms terms;
        address feeToken;
        uint256 tokenFilingFee;
    }

    /// @dev A case filed through the arbitrator: which arbitrator, for which arbitrable and dispute.
    struct CaseArbitration {
        address arbitrator;
        address arbitrable;
        uint256 disputeId;
    }

    struct Stats {
        uint256 totalCases;
        uint256[8] byState;
        uint256 openCases;
    }

    /// @notice The DisputeCase every case is a clone of.
    /// @return The implementation's address.
    address public immutable implementation;
    /// @notice Where draws get their randomness.
    /// @return The entropy source.
    IDrawEntropy public immutable entropy;
    /// @notice The arbitrator whose disputes this factory files as cases (zero: none).
    /// @return The arbitrator.
    address public arbitrator;
    mapping(address => CaseArbitration) private arbitrations;

    /// @param registry_ The court registry (courts and their terms, judges).
    /// @param entropy_ The draw entropy source.
    /// @param feeRecipient_ Where filing fees go.
    /// @param filingFee_ The filing fee in the native coin.
    /// @param manualSeating_ Whether the owner may seat panels by hand (dev and test chains only).
    constructor(
        CourtRegistry registry_,
        IDrawEntropy entropy_,
        address feeRecipient_,
        uint256 filingFee_,
        bool manualSeating_
    ) FactoryBase(registry_) FilingFees(feeRecipient_, filingFee_) JudgeSeating(manualSeating_) {
        if (feeRecipient_ == address(0) || address(entropy_) == address(0)) revert InvalidParameter();
        implementation = address(new DisputeCase());
        entropy = entropy_;
    }

    // ----------------------------------------------------------------- writes

    /// @notice Files a case against `defendant` in `courtId`, staking the sent value. `paymentRef`
    /// names a filing fee the caller paid with `payFilingFee`; each one files at most one case. The
    /// case copies the court's terms now; later changes to the court never reach it.
    /// @param courtId The court (0 or 1: the General court).
    /// @param defendant Against whom.
    /// @param claimDescription The claim (1 to 2000 bytes).
    /// @param evidenceIpfsHash The plaintiff's evidence reference (1 to 128 bytes).
    /// @param paymentRef The paid filing fee's reference.
    /// @return caseAddr The new case.
    function fileCase(
        uint96 courtId,
        address defendant,
        string calldata claimDescription,
        string calldata evidenceIpfsHash,
        bytes32 paymentRef
    ) external payable returns (address caseAddr) {
        _checkFiling(defendant, claimDescription, evidenceIpfsHash);
        bytes32 refKey = _unusedRef(paymentRef);
        if (feePaidPlusOne[refKey] == 0) revert FilingFeeNotPaid(paymentRef, msg.sender);
        caseAddr = _file(courtId, defendant, claimDescription, evidenceIpfsHash, paymentRef, refKey);
    }

    /// @notice Files a case against `defendant` in `courtId`, staking the sent value, and pays the
    /// filing fee in the fee token with the caller's EIP-3009 authorization `auth` (from the caller,
    /// to this factory, at least `tokenFilingFee`), which this call submits to the token: the fee
    /// reaches the fee recipient in this transaction, or nothing happens. `auth.nonce` is the case's
    /// `paymentRef`. The case copies the court's terms now, as with `fileCase`. If someone submitted
    /// the authorization to the token first (copied from this pending call), its fee is here: the
    /// filing checks the signature itself and forwards `auth.value` of the factory's tokens, once
    /// per (payer, nonce) like any reference.
    /// @param courtId The court (0 or 1: the General court).
    /// @param defendant Against whom.
    /// @param claimDescription The claim (1 to 2000 bytes).
    /// @param evidenceIpfsHash The plaintiff's evidence reference (1 to 128 bytes).
    /// @param auth The plaintiff's signed EIP-3009 TransferWithAuthorization to this factory.
    /// @return caseAddr The new case.
    function fileCaseWithAuthorization(
        uint96 courtId,
        address defendant,
        string calldata claimDescription,
        string calldata evidenceIpfsHash,
        FeeAuthorization calldata auth
    ) external payable returns (address caseAddr) {
        _checkFiling(defendant, claimDescription, evidenceIpfsHash);
        bytes32 refKey = _unusedRef(auth.nonce);
        // A reference the caller paid in the native coin files with fileCase; this would strand that fee.
        if (feePaidPlusOne[refKey] != 0) revert FilingFeeAlreadyPaid(auth.nonce);
        _takeTokenFee(auth);
        caseAddr = _file(courtId, defendant, claimDescription, evidenceIpfsHash, auth.nonce, refKey);
    }

    /// @dev The filing itself, its fee taken: the clone, the indexes, the case's initialisation (which
    /// checks the stake against the court's minimum), the reporter told.
    function _file(
        uint96 courtId,
        address defendant,
        string calldata claimDescription,
        string calldata evidenceIpfsHash,
        bytes32 paymentRef,
        bytes32 refKey
    ) private returns (address caseAddr) {
        caseAddr = _register(msg.sender, defendant);
        refUsedBy[refKey] = caseAddr;
        uint96 court = _initialize(caseAddr, courtId, defendant, claimDescription, evidenceIpfsHash);
        emit CaseFiled(caseAddr, msg.sender, defendant, paymentRef, msg.value, court);
        emit CaseChanged(caseAddr, CaseState.Summoned);
        _tellFiled(caseAddr, msg.sender, defendant, true, true);
    }

    /// @dev Copies the court's terms into the new case, with the sent value as the plaintiff's
    /// stake (which must reach the court's minimum).
    function _initialize(
        address caseAddr,
        uint96 courtId,
        address defendant,
        string memory claimDescription,
        string memory evidenceIpfsHash
    ) private returns (uint96 court) {
        uint96 appealCourt;
        CaseTerms memory terms;
        (court, appealCourt, terms) = registry.caseConfig(courtId);
        if (msg.value < terms.minPartyStake) revert StakeBelowMinimum(terms.minPartyStake, msg.value);
        DisputeCase(caseAddr).initialize{value: msg.value}(
            address(registry),
            address(entropy),
            msg.sender,
            defendant,
            claimDescription,
            evidenceIpfsHash,
            terms,
            court,
            appealCourt,
            0
        );
    }

    /// @dev A new case's clone and its place in every index.
    function _register(address plaintiff, address defendant) private returns (address caseAddr) {
        caseAddr = _clone(implementation);
        registry.registerCase(caseAddr);
        _index(caseAddr, plaintiff, defendant);
    }

    /// @notice The arbitrator files a dispute as a case in `f.courtId`: `f.plaintiff` against
    /// `f.defendant`, who stake nothing (the court's minimum party stake is 0 in this case). Of the
    /// value, the filing fee goes to the fee recipient now, as every filing's; the rest is the
    /// case's arbitration fee (judges and court, see DisputeCase.arbitrationFee). The first round
    /// seats `f.panelSize` judges, the appeal at least as many as the court's appeal panel.
    /// @param f The filing: court, panel size, parties, claim, evidence, arbitrable and dispute id.
    /// @return caseAddr The new case.
    function fileDispute(DisputeFiling calldata f) external payable returns (address caseAddr) {
        if (msg.sender != arbitrator || msg.sender == address(0)) revert OnlyArbitrator();
        if (f.plaintiff == address(0)) revert InvalidParameter();
        _checkParties(f.plaintiff, f.defendant, f.claimDescription, f.evidenceIpfsHash);
        uint256 fee = filingFee;
        if (msg.value < fee) revert FilingFeeTooLow(fee, msg.value);
        caseAddr = _register(f.plaintiff, f.defendant);
        arbitrations[caseAddr] = CaseArbitration(msg.sender, f.arbitrable, f.disputeId);
        _recordConsent(caseAddr, f.plaintiff, f.defendant, f.arbitrable);
        (uint96 court, uint96 appealCourt, CaseTerms memory terms) = registry.caseConfig(f.courtId);
        terms.minPartyStake = 0;
        terms.panelSize = f.panelSize;
        if (terms.appealPanelSize < f.panelSize) terms.appealPanelSize = f.panelSize;
        emit CaseFiled(caseAddr, f.plaintiff, f.defendant, bytes32(0), 0, court);
        _initDispute(caseAddr, f, terms, court, appealCourt, msg.value - fee);
        emit CaseChanged(caseAddr, CaseState.Summoned);
        if (fee > 0) {
            (bool ok,) = feeRecipient.call{value: fee}("");
            if (!ok) revert FeeTransferFailed();
        }
    }

    /// @dev The dispute's case initialised, its parties staking nothing and `arbitrationFee` in it.
    function _initDispute(
        address caseAddr,
        DisputeFiling calldata f,
        CaseTerms memory terms,
        uint96 court,
        uint96 appealCourt,
        uint256 arbitrationFee
    ) private {
        string memory claim = f.claimDescription;
        string memory evidence = f.evidenceIpfsHash;
        DisputeCase(caseAddr).initialize{value: arbitrationFee}(
            address(registry),
            address(entropy),
            f.plaintiff,
            f.defendant,
            claim,
            evidence,
            terms,
            court,
            appealCourt,
            arbitrationFee
        );
    }

    /// @notice The owner names the arbitrator whose disputes this factory files (zero: none).
    /// Cases filed earlier keep reporting to the arbitrator that filed them.
    /// @param arbitrator_ The arbitrator.
    function setArbitrator(address arbitrator_) external onlyOwner {
        arbitrator = arbitrator_;
        emit ArbitratorChanged(arbitrator_);
    }

    /// @dev A case this factory filed for an arbitrator is final: that arbitrator delivers the ruling
    /// (never reverting on the arbitrable's account; it asks only for enough gas to try).
    function _closed(address c) internal override {
        address arb = arbitrations[c].arbitrator;
        if (arb != address(0)) ICaseCloseHook(arb).caseClosed(c);
    }

    // ------------------------------------------------------------------ views

    /// @notice Whether a case was filed through an arbitrator, and for which arbitrable and dispute:
    /// what a gateway reads beside `getCase` (one multicall).
    /// @param caseAddr The case.
    /// @return arbitrated False for a case filed by its plaintiff (then `a` is empty).
    /// @return a The arbitrator, the arbitrable and the dispute id.
    function getCaseArbitration(address caseAddr) external view returns (bool arbitrated, CaseArbitration memory a) {
        a = arbitrations[caseAddr];
        arbitrated = a.arbitrator != address(0);
    }

    /// @notice Case counts: filed, in each state (in CaseState order) and open.
    /// @return s The counts.
    function getStats() external view returns (Stats memory s) {
        s.totalCases = cases.length;
        s.byState = countByState;
        s.openCases = openCases.length;
    }

    /// @notice The deployment's parameters; `terms` and `minJudgeStake` are the General court's
    /// (each court's: the registry's `getCourt`).
    /// @return p The parameters.
    function getParams() external view returns (Params memory p) {
        p.owner = owner;
        p.registry = address(registry);
        p.implementation = implementation;
        p.entropy = address(entropy);
        p.feeRecipient = feeRecipient;
        p.filingFee = filingFee;
        p.minJudgeStake = registry.minJudgeStake();
        (,, p.terms) = registry.caseConfig(0);
        p.feeToken = address(feeToken);
        p.tokenFilingFee = tokenFilingFee;
    }

    // --------------------------------------------------------------- internal

    function _checkFiling(address defendant, string calldata claimDescription, string calldata evidenceIpfsHash)
        private
        view
    {
        _checkParties(msg.sender, defendant, claimDescription, evidenceIpfsHash);
    }

    function _checkParties(
        address plaintiff,
        address defendant,
        string calldata claimDescription,
        string calldata evidenceIpfsHash
    ) private pure {
        if (defendant == address(0) || defendant == plaintiff) revert InvalidDefendant();
        uint256 claimLength = bytes(claimDescription).length;
        if (claimLength == 0) revert ClaimRequired();
        if (claimLength > MAX_CLAIM_LENGTH) revert ClaimTooLong(MAX_CLAIM_LENGTH);
        uint256 hashLength = bytes(evidenceIpfsHash).length;
        if (hashLength == 0 || hashLength > MAX_HASH_LENGTH) revert EvidenceHashInvalid();
    }

    /// @dev EIP-1167 minimal proxy: the standard 55-byte creation code delegating to `impl`.
    function _clone(address impl) private returns (address instance) {
        bytes memory code = abi.encodePacked(
            hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", impl, hex"5af43d82803e903d91602b57fd5bf3"
        );
        assembly {
            instance := create(0, add(code, 0x20), mload(code))
        }
        if (instance == address(0)) revert CloneFailed();
    }
}
