// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {
    CaseState,
    CaseTerms,
    CaseView,
    CaseSummary,
    CaseStatus,
    DisputeFiling,
    FeeAuthorization
} from "../interfaces/CourtTypes.sol";
import {ICaseFactory} from "../interfaces/ICaseFactory.sol";
import {IDrawEntropy} from "../interfaces/IDrawEntropy.sol";
import {IFeeToken} from "../interfaces/IFeeToken.sol";
import {DisputeCase} from "../case/DisputeCase.sol";
import {Paging} from "../libraries/Paging.sol";

import {CourtRegistry} from "../courts/CourtRegistry.sol";
import {IArbitratorConsent} from "../interfaces/IArbitratorConsent.sol";
import {ICaseFiledHook} from "../interfaces/ICaseFiledHook.sol";
import {ICaseRecord} from "../interfaces/ICaseRecord.sol";
import {ICaseCloseHook} from "../interfaces/ICaseCloseHook.sol";
import {IEip712Token} from "../interfaces/IEip712Token.sol";

/// @title Files cases and seats their judges; the gateway's single place to read cases from.
/// @notice Each case is a minimal clone (EIP-1167) of one DisputeCase implementation, so every case
/// has its own address. The filing fee is paid here first (`payFilingFee`, with a reference the
/// payer chooses), forwarded to the fee recipient and recorded; `fileCase` takes only a reference
/// its own caller paid and has not used, so the fee holds for anyone who goes to the chain directly.
/// The fee may also be paid in any EIP-3009 token (`feeToken`, USDC included: the x402 "exact"
/// scheme's payment): the plaintiff signs a transfer of at least `tokenFilingFee` to this factory and
/// hands it to `fileCaseWithAuthorization`, which submits it to the token itself and forwards the fee
/// to the fee recipient, in the filing's own transaction: paid and filed together, or neither. An
/// authorization a watcher copied out of a pending filing and submitted to the token first still
/// files: the fee it moved here serves that payer's filing with it, once (see
/// `fileCaseWithAuthorization`). What reaches the factory otherwise the owner returns with `refundToken`.
/// The record: every case goes on its parties' records except a dispute filed through the arbitrator
/// for a party that did not agree to it (`onRecord`); the court's ERC-8004 reporter (the registry's
/// outcome hook) is told of each filing, so the agents its feedback goes to are fixed then.
/// Hand-seating (`assignJudges`) exists only on a factory deployed with `manualSeating` (dev and
/// test chains); elsewhere every panel is drawn.
contract CaseFactory is ICaseFactory, ICaseRecord {
    /// @notice The longest claim a case may have, in bytes.
    /// @return The length.
    uint256 public constant MAX_CLAIM_LENGTH = 2000;
    /// @notice The longest evidence reference (an IPFS CID) a filing may give, in bytes.
    /// @return The length.
    uint256 public constant MAX_HASH_LENGTH = 128;
    /// @notice How many case states there are (`getStats().byState` has one count each).
    /// @return The count.
    uint256 public constant STATE_COUNT = 8;
    /// @notice Gas the outcome hook's `caseFiled` gets at each filing (the caller must leave this much).
    /// @return The gas.
    uint256 public constant FILED_HOOK_GAS = 150_000;
    /// @dev EIP-3009's TransferWithAuthorization type hash (what x402 "exact" signs).
    bytes32 private constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    /// @notice Only the factory's owner may do this.
    error OnlyOwner();
    /// @notice Only a case this factory filed may do this.
    error OnlyCase();
    /// @notice The address is not a case this factory filed.
    /// @param caseAddr The address given.
    error UnknownCase(address caseAddr);
    /// @notice The defendant may be neither the zero address nor the plaintiff.
    error InvalidDefendant();
    /// @notice A claim may not be empty.
    error ClaimRequired();
    /// @notice The claim is too long.
    /// @param max The longest allowed, in bytes.
    error ClaimTooLong(uint256 max);
    /// @notice The evidence reference must be 1 to MAX_HASH_LENGTH bytes.
    error EvidenceHashInvalid();
    /// @notice A payment reference may not be zero.
    error PaymentRefRequired();
    /// @notice The caller filed a case with this reference already; a reference files one case.
    /// @param paymentRef The reference.
    /// @param caseAddr The case it filed.
    error PaymentRefUsed(bytes32 paymentRef, address caseAddr);
    /// @notice The caller paid no filing fee under this reference (`payFilingFee` first).
    /// @param paymentRef The reference.
    /// @param plaintiff The caller.
    error FilingFeeNotPaid(bytes32 paymentRef, address plaintiff);
    /// @notice The caller paid a filing fee under this reference already (it files with `fileCase`).
    /// @param paymentRef The reference.
    error FilingFeeAlreadyPaid(bytes32 paymentRef);
    /// @notice Less than the filing fee was sent.
    /// @param required The filing fee.
    /// @param sent What was sent.
    error FilingFeeTooLow(uint256 required, uint256 sent);
    /// @notice Forwarding the fee (or returning a token) failed.
    error FeeTransferFailed();
    /// @notice The token fee authorized, or what arrived of it, is below the token filing fee.
    /// @param required The token filing fee.
    /// @param paid What was authorized, or what arrived.
    error TokenFeeTooLow(uint256 required, uint256 paid);
    /// @notice The filing fee cannot be paid in a token now (no fee token set).
    error TokenFeeOff();
    /// @notice The token has this authorization's nonce used (or cancelled) already: by an earlier
    /// filing or a cancellation (an authorization someone submitted to the token first files: see
    /// `fileCaseWithAuthorization`).
    /// @param authorizer The payer (the caller).
    /// @param nonce The authorization's nonce (the payment reference).
    error AuthorizationUsed(address authorizer, bytes32 nonce);
    /// @notice The authorization's signature must be 65 bytes (r ‖ s ‖ v).
    /// @param length The length given.
    error SignatureLength(uint256 length);
    /// @notice The stake sent is below the court's minimum party stake.
    /// @param minimum The minimum.
    /// @param sent What was sent.
    error StakeBelowMinimum(uint256 minimum, uint256 sent);
    /// @notice A parameter is out of range (a zero address, a token fee of zero, ...).
    error InvalidParameter();
    /// @notice Creating the case's clone failed.
    error CloneFailed();
    /// @notice Only the arbitrator named with `setArbitrator` may file disputes.
    error OnlyArbitrator();
    /// @notice This factory seats no judge by hand (it was deployed without `manualSeating`): panels are drawn.
    error ManualSeatingOff();
    /// @notice The transaction has too little gas left to give the outcome hook's `caseFiled` its
    /// FILED_HOOK_GAS; send it with more gas.
    /// @param required The gas that must be left.
    error NotEnoughGasForFiledHook(uint256 required);

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
    /// @notice A filing fee was paid (and forwarded to the fee recipient).
    /// @param payer Who paid, the only one who may file with it.
    /// @param paymentRef The reference it was paid under.
    /// @param amount What was paid.
    event FilingFeePaid(address indexed payer, bytes32 indexed paymentRef, uint256 amount);
    /// @notice Emitted on every change to any case, so one log filter follows them all.
    /// @param caseAddr The case.
    /// @param state Its state now.
    event CaseChanged(address indexed caseAddr, CaseState state);
    /// @notice The factory has a new owner.
    /// @param previousOwner The owner before.
    /// @param newOwner The owner now.
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    /// @notice The owner changed where filing fees go and how much the native-coin fee is.
    /// @param feeRecipient Where fees go now.
    /// @param filingFee The fee now.
    event FilingChanged(address feeRecipient, uint256 filingFee);
    /// @notice The owner changed the token a filing fee may be paid in, or its fee.
    /// @param feeToken The token now (zero: none).
    /// @param tokenFilingFee The fee in its units.
    event TokenFeeChanged(address feeToken, uint256 tokenFilingFee);
    /// @notice A filing took a token fee (an EIP-3009 authorization to this factory) and forwarded it.
    /// @param payer The plaintiff who signed it.
    /// @param paymentRef The case's reference (the authorization's nonce).
    /// @param token The token.
    /// @param amount What arrived and was forwarded.
    event TokenFilingFeeTaken(address indexed payer, bytes32 indexed paymentRef, address token, uint256 amount);
    /// @notice A dispute filed through the arbitrator is off the record of a party that did not agree to it.
    /// @param caseAddr The case.
    /// @param party The party.
    event PartyOffRecord(address indexed caseAddr, address indexed party);
    /// @notice The owner returned tokens that reached the factory outside a filing.
    /// @param token The token.
    /// @param to Who got them.
    /// @param amount How much.
    event TokenRefunded(address indexed token, address indexed to, uint256 amount);
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

    /// @notice Who sets fees and the arbitrator, returns stray tokens and, where `manualSeating`, seats judges by hand.
    /// @return The owner.
    address public owner;
    /// @notice Whether the owner may seat a panel by hand (`assignJudges`): only on a factory
    /// deployed for a dev or test chain; fixed at deployment.
    /// @return True on a dev or test deployment.
    bool public immutable manualSeating;
    /// @notice The court registry: courts and their terms, judges, sortition.
    /// @return The CourtRegistry.
    CourtRegistry public immutable registry;
    /// @notice The DisputeCase every case is a clone of.
    /// @return The implementation's address.
    address public immutable implementation;
    /// @notice Where draws get their randomness.
    /// @return The entropy source.
    IDrawEntropy public immutable entropy;
    /// @notice Where filing fees go.
    /// @return The recipient.
    address public feeRecipient;
    /// @notice The filing fee in the native coin.
    /// @return The fee, in wei.
    uint256 public filingFee;
    /// @notice The token a filing fee may also be paid in (zero: native coin only), and its fee.
    /// @return The token.
    IFeeToken public feeToken;
    /// @notice The filing fee in `feeToken`'s units.
    /// @return The fee.
    uint256 public tokenFilingFee;
    /// @notice The arbitrator whose disputes this factory files as cases (zero: none).
    /// @return The arbitrator.
    address public arbitrator;
    mapping(address => CaseArbitration) private arbitrations;
    /// @dev A dispute's parties that did not agree to the arbitrable naming them (case => party => off).
    mapping(address => mapping(address => bool)) private offRecord;

    address[] private cases;
    /// @notice Whether an address is a case this factory filed.
    /// @return True for a case.
    mapping(address => bool) public isCase;
    /// @dev Keyed by (paymentRef, plaintiff): a reference is single-use for the plaintiff who paid,
    /// and nobody who sees a pending payment can burn it by filing with it first.
    mapping(bytes32 => address) private refUsedBy;
    /// @dev Filing fees paid, by the same (paymentRef, payer) key: amount + 1, so 0 means unpaid.
    mapping(bytes32 => uint256) private feePaidPlusOne;
    uint256[8] private countByState;
    /// @dev Cases that can still change (not defaulted, dismissed or settled), enumerable.
    address[] private openCases;
    mapping(address => uint256) private openIndexPlusOne;
    /// @dev Cases whose judges are voting right now: what validators look for, kept apart so that
    /// listing them costs nothing for the many cases in other states.
    address[] private deliberating;
    mapping(address => uint256) private deliberatingIndexPlusOne;
    /// @dev The open cases each address takes part in, as plaintiff, defendant or a seated judge of
    /// any round: what an inbox pages through. One enumerable set per address (at most 2 parties and
    /// 3 + 5 judges per case), each case leaving every participant's set when it leaves `openCases`.
    mapping(address => address[]) private involved;
    mapping(address => mapping(address => uint256)) private involvedIndexPlusOne;

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
    ) {
        if (feeRecipient_ == address(0) || address(entropy_) == address(0)) revert InvalidParameter();
        owner = msg.sender;
        registry = registry_;
        implementation = address(new DisputeCase());
        entropy = entropy_;
        feeRecipient = feeRecipient_;
        filingFee = filingFee_;
        manualSeating = manualSeating_;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert OnlyOwner();
        _;
    }

    // ----------------------------------------------------------------- writes

    /// @notice Pays the filing fee for one future case under `paymentRef` (any non-zero value the
    /// payer picks, unique for it). The fee goes straight to the fee recipient.
    /// @param paymentRef The reference the caller will file with.
    function payFilingFee(bytes32 paymentRef) external payable {
        if (paymentRef == bytes32(0)) revert PaymentRefRequired();
        if (msg.value < filingFee) revert FilingFeeTooLow(filingFee, msg.value);
        bytes32 refKey = keccak256(abi.encode(paymentRef, msg.sender));
        if (feePaidPlusOne[refKey] != 0) revert FilingFeeAlreadyPaid(paymentRef);
        // A reference that already filed (its fee paid in the token) would take the fee and file nothing.
        address usedBy = refUsedBy[refKey];
        if (usedBy != address(0)) revert PaymentRefUsed(paymentRef, usedBy);
        feePaidPlusOne[refKey] = msg.value + 1;
        emit FilingFeePaid(msg.sender, paymentRef, msg.value);
        (bool ok,) = feeRecipient.call{value: msg.value}("");
        if (!ok) revert FeeTransferFailed();
    }

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

    /// @notice The owner returns `amount` of `token` held by the factory to `to`. The factory holds
    /// no token between transactions (a filing forwards its fee at once), so anything here arrived
    /// outside a filing: an authorization to the factory that someone submitted to the token
    /// directly (the token's AuthorizationUsed and Transfer logs name its payer), or a plain transfer.
    /// @param token The token to return.
    /// @param to Who gets it back (its payer).
    /// @param amount How much, in the token's units.
    function refundToken(address token, address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert InvalidParameter();
        emit TokenRefunded(token, to, amount);
        if (!IFeeToken(token).transfer(to, amount)) revert FeeTransferFailed();
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
        isCase[caseAddr] = true;
        cases.push(caseAddr);
        registry.registerCase(caseAddr);
        _openAdd(caseAddr);
        _setAdd(involved[plaintiff], involvedIndexPlusOne[plaintiff], caseAddr);
        _setAdd(involved[defendant], involvedIndexPlusOne[defendant], caseAddr);
        countByState[uint256(CaseState.Summoned)] += 1;
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

    /// @dev Which of a dispute's parties agreed to the arbitrable naming them (the arbitrator's
    /// consent, read now and kept), and the reporter told of the filing.
    function _recordConsent(address caseAddr, address plaintiff, address defendant, address arbitrable) private {
        bool pOn = IArbitratorConsent(msg.sender).consented(plaintiff, arbitrable);
        bool dOn = IArbitratorConsent(msg.sender).consented(defendant, arbitrable);
        if (!pOn) {
            offRecord[caseAddr][plaintiff] = true;
            emit PartyOffRecord(caseAddr, plaintiff);
        }
        if (!dOn) {
            offRecord[caseAddr][defendant] = true;
            emit PartyOffRecord(caseAddr, defendant);
        }
        _tellFiled(caseAddr, plaintiff, defendant, pOn, dOn);
    }

    /// @inheritdoc ICaseRecord
    function onRecord(address caseAddr, address party) external view returns (bool) {
        return !offRecord[caseAddr][party];
    }

    /// @dev Tells the registry's outcome hook (the court's ERC-8004 reporter) of the filing, with
    /// FILED_HOOK_GAS; its failure never blocks a filing (the hook then looks the agents up when the
    /// case ends). Too little gas to give it that is refused, so no gas estimate skips it quietly.
    function _tellFiled(address caseAddr, address plaintiff, address defendant, bool pOn, bool dOn) private {
        address hook = registry.outcomeHook();
        if (hook.code.length == 0) return;
        uint256 needed = FILED_HOOK_GAS + FILED_HOOK_GAS / 63 + 10_000;
        if (gasleft() < needed) revert NotEnoughGasForFiledHook(needed);
        try ICaseFiledHook(hook).caseFiled{gas: FILED_HOOK_GAS}(caseAddr, plaintiff, defendant, pOn, dOn) {} catch {}
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

    /// @notice Whether a case was filed through an arbitrator, and for which arbitrable and dispute:
    /// what a gateway reads beside `getCase` (one multicall).
    /// @param caseAddr The case.
    /// @return arbitrated False for a case filed by its plaintiff (then `a` is empty).
    /// @return a The arbitrator, the arbitrable and the dispute id.
    function getCaseArbitration(address caseAddr) external view returns (bool arbitrated, CaseArbitration memory a) {
        a = arbitrations[caseAddr];
        arbitrated = a.arbitrator != address(0);
    }

    /// @notice Executes the case's armed draw (stake-weighted, from the entropy source). Anyone may
    /// call it (a keeper); the caller chooses nothing about the panel. An expired draw re-arms instead.
    /// @param caseAddr The case.
    function assignJudgesRandom(address caseAddr) external {
        DisputeCase(_known(caseAddr)).drawJudges();
        _involvePanel(DisputeCase(caseAddr));
    }

    /// @notice The owner's manual override: seats the given judges; only on a factory deployed with
    /// `manualSeating` (dev and test chains), elsewhere refused for every case.
    /// @param caseAddr The case.
    /// @param judges The panel: the round's panel size of judges eligible in its court, no party, none twice,
    /// on appeal none of the first round.
    function assignJudges(address caseAddr, address[] calldata judges) external onlyOwner {
        if (!manualSeating) revert ManualSeatingOff();
        DisputeCase(_known(caseAddr)).setJudges(judges);
        _involvePanel(DisputeCase(caseAddr));
    }

    /// @notice Hands the factory to a new owner; only the owner.
    /// @param newOwner The new owner (not zero).
    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert InvalidParameter();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice Sets where filing fees go and the native-coin fee; only the owner. Fees paid before
    /// keep filing.
    /// @param feeRecipient_ Where fees go (not zero).
    /// @param filingFee_ The fee in the native coin.
    function setFiling(address feeRecipient_, uint256 filingFee_) external onlyOwner {
        if (feeRecipient_ == address(0)) revert InvalidParameter();
        feeRecipient = feeRecipient_;
        filingFee = filingFee_;
        emit FilingChanged(feeRecipient_, filingFee_);
    }

    /// @notice Lets the filing fee also be paid in `token` (`fee` in its units), any EIP-3009 token;
    /// the zero address turns it off.
    /// @param token The token (zero: none).
    /// @param fee The fee in its units (not zero with a token).
    function setTokenFee(address token, uint256 fee) external onlyOwner {
        if (token != address(0) && fee == 0) revert InvalidParameter();
        feeToken = IFeeToken(token);
        tokenFilingFee = fee;
        emit TokenFeeChanged(token, fee);
    }

    /// @notice Cases report every change here: counts stay exact and one event follows them all.
    /// @param from The state the calling case left.
    /// @param to The state it is in now.
    function onCaseChanged(CaseState from, CaseState to) external {
        if (!isCase[msg.sender]) revert OnlyCase();
        if (from != to) {
            countByState[uint256(from)] -= 1;
            countByState[uint256(to)] += 1;
            if (to == CaseState.Deliberating) _setAdd(deliberating, deliberatingIndexPlusOne, msg.sender);
            if (from == CaseState.Deliberating) _setRemove(deliberating, deliberatingIndexPlusOne, msg.sender);
        }
        if (to == CaseState.Defaulted || to == CaseState.Dismissed) _close(msg.sender);
        else if (to == CaseState.Resolved && DisputeCase(msg.sender).settled()) _close(msg.sender);
        emit CaseChanged(msg.sender, to);
    }

    // ------------------------------------------------------------------ views

    /// @notice The whole case in one call; `exists` is false for an address that is not a case.
    /// @param caseAddr The case.
    /// @return exists False for an address that is not a case.
    /// @return view_ The case: parties, stakes, state, deadlines, panel, votes, court.
    function getCase(address caseAddr) external view returns (bool exists, CaseView memory view_) {
        if (!isCase[caseAddr]) return (false, view_);
        return (true, DisputeCase(caseAddr).getCase());
    }

    /// @notice The whole case and the evidence its parties added, in one call (what a judge reads).
    /// @param caseAddr The case.
    /// @return exists False for an address that is not a case (then nothing else is read).
    /// @return view_ The case, as `getCase` gives it.
    /// @return items The evidence added after filing, oldest first.
    function getCaseEvidence(address caseAddr)
        external
        view
        returns (bool exists, CaseView memory view_, DisputeCase.Evidence[] memory items)
    {
        if (!isCase[caseAddr]) return (false, view_, items);
        return (true, DisputeCase(caseAddr).getCase(), DisputeCase(caseAddr).getEvidence());
    }

    /// @notice A page of case addresses in filing order, with the total.
    /// @param offset The first case, from 0.
    /// @param limit At most this many.
    /// @return total Cases filed.
    /// @return page The page's cases.
    function getCases(uint256 offset, uint256 limit) external view returns (uint256 total, address[] memory page) {
        total = cases.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new address[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = cases[offset + i];
        }
    }

    /// @notice A page of the cases that can still change, with their total: the summaries of the open
    /// cases at [offset, offset + limit) that are in `state` (all of them unless `filterByState`), so a
    /// page reads at most `limit` cases. Unordered, as `getCaseStatuses`: a case that closes is swapped
    /// out for the last one, so a page walk during changes can skip or repeat one.
    /// @param filterByState Whether to keep only cases in `state`.
    /// @param state The state to keep (ignored unless `filterByState`).
    /// @param offset The first open case, from 0.
    /// @param limit At most this many open cases read.
    /// @return total Open cases (all states).
    /// @return page The summaries of the page's cases that matched.
    function getOpenCases(bool filterByState, CaseState state, uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, CaseSummary[] memory page)
    {
        total = openCases.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new CaseSummary[](n);
        uint256 k = 0;
        for (uint256 i = 0; i < n; i++) {
            DisputeCase c = DisputeCase(openCases[offset + i]);
            if (filterByState && c.state() != state) continue;
            page[k++] = c.getSummary();
        }
        assembly {
            mstore(page, k)
        }
    }

    /// @notice A page of the cases in Deliberating (judges voting), with their total.
    /// @param offset The first case, from 0.
    /// @param limit At most this many.
    /// @return total Cases deliberating.
    /// @return page The page's summaries.
    function getDeliberatingCases(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, CaseSummary[] memory page)
    {
        total = deliberating.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new CaseSummary[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = DisputeCase(deliberating[offset + i]).getSummary();
        }
    }

    /// @notice A page of what decides who may act now on the open cases `who` takes part in (as a
    /// party, or a judge of either round), with their total and the chain time it was read at.
    /// The set is unordered: a case that closes is swapped out for the last one, so a walk over
    /// pages while cases close can skip or repeat a case; compare `total` between pages.
    /// @param who The party or judge.
    /// @param offset The first case, from 0.
    /// @param limit At most this many.
    /// @return total Open cases `who` takes part in.
    /// @return chainTime The block timestamp the page was read at.
    /// @return page The page's statuses.
    function getInvolvedCases(address who, uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, uint64 chainTime, CaseStatus[] memory page)
    {
        return _statusPage(involved[who], offset, limit);
    }

    /// @notice A page of the statuses of every open case (what a keeper looks through for steps anyone
    /// may take), with their total and the chain time. Unordered, as `getInvolvedCases`: a case
    /// that closes is swapped out for the last one, so a page walk during changes can skip or repeat one.
    /// @param offset The first open case, from 0.
    /// @param limit At most this many.
    /// @return total Open cases.
    /// @return chainTime The block timestamp the page was read at.
    /// @return page The page's statuses.
    function getCaseStatuses(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, uint64 chainTime, CaseStatus[] memory page)
    {
        return _statusPage(openCases, offset, limit);
    }

    /// @notice How many open cases `who` takes part in: `getInvolvedCases`'s total.
    /// @param who The party or judge.
    /// @return The count.
    function involvedCount(address who) external view returns (uint256) {
        return involved[who].length;
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

    /// @notice The case `plaintiff` filed with `paymentRef`, or zero if it has not used it.
    /// @param paymentRef The reference.
    /// @param plaintiff Who paid (and files with) it.
    /// @return The case, or zero.
    function paymentRefUsedBy(bytes32 paymentRef, address plaintiff) external view returns (address) {
        return refUsedBy[keccak256(abi.encode(paymentRef, plaintiff))];
    }

    /// @notice The filing fee `payer` paid under `paymentRef`, and the case that used it, if any.
    /// @param paymentRef The reference.
    /// @param payer Who paid.
    /// @return paid Whether a native-coin fee was paid under it.
    /// @return amount What was paid.
    /// @return usedBy The case filed with it (a token fee's case too), or zero.
    function feePayment(bytes32 paymentRef, address payer)
        external
        view
        returns (bool paid, uint256 amount, address usedBy)
    {
        bytes32 refKey = keccak256(abi.encode(paymentRef, payer));
        uint256 p = feePaidPlusOne[refKey];
        return (p != 0, p == 0 ? 0 : p - 1, refUsedBy[refKey]);
    }

    /// @notice How many cases were filed.
    /// @return The count.
    function caseCount() external view returns (uint256) {
        return cases.length;
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

    /// @dev The caller's key for `paymentRef`, refused when zero or already used to file. Keyed by
    /// the caller, so nobody files with another's payment; one case per reference.
    function _unusedRef(bytes32 paymentRef) private view returns (bytes32 refKey) {
        if (paymentRef == bytes32(0)) revert PaymentRefRequired();
        refKey = keccak256(abi.encode(paymentRef, msg.sender));
        address usedBy = refUsedBy[refKey];
        if (usedBy != address(0)) revert PaymentRefUsed(paymentRef, usedBy);
    }

    /// @dev Submits the caller's authorization to the token (`transferWithAuthorization`: the x402
    /// "exact" client signs that type, so `receiveWithAuthorization`, which checks another, cannot take
    /// it) and forwards what arrived to the fee recipient. `from` is the caller, so the token's
    /// signature check is also the check that the caller is the payer. A nonce the token has used
    /// already: the fee it moved is here if someone submitted this very authorization first (see
    /// `_takeStrandedFee`); otherwise (a replay of a filed reference is refused before, by
    /// `_unusedRef`) it is refused by name.
    function _takeTokenFee(FeeAuthorization calldata auth) private {
        IFeeToken token = feeToken;
        if (address(token) == address(0)) revert TokenFeeOff();
        if (auth.value < tokenFilingFee) revert TokenFeeTooLow(tokenFilingFee, auth.value);
        bytes calldata sig = auth.signature;
        if (sig.length != 65) revert SignatureLength(sig.length);
        if (token.authorizationState(msg.sender, auth.nonce)) {
            _takeStrandedFee(token, auth);
            return;
        }
        uint256 before = token.balanceOf(address(this));
        token.transferWithAuthorization(
            msg.sender,
            address(this),
            auth.value,
            auth.validAfter,
            auth.validBefore,
            auth.nonce,
            uint8(sig[64]),
            bytes32(sig[0:32]),
            bytes32(sig[32:64])
        );
        // What arrived, not what was asked: a token that takes a cut never under-pays the court silently.
        uint256 arrived = token.balanceOf(address(this)) - before;
        if (arrived < tokenFilingFee) revert TokenFeeTooLow(tokenFilingFee, arrived);
        emit TokenFilingFeeTaken(msg.sender, auth.nonce, address(token), arrived);
        if (!token.transfer(feeRecipient, arrived)) revert FeeTransferFailed();
    }

    /// @dev [records] issue #31, item 5. The token used the caller's nonce already and the caller's
    /// signature over this TransferWithAuthorization to this factory checks here: a watcher submitted
    /// it first and its `value` reached this factory, which forwards it as the fee (once: the
    /// reference is then used). EIP-3009 tokens keep no record of what a used nonce moved, so a payer
    /// who instead cancelled its own nonce could draw another payer's stranded fee here
    /// (docs/security.md); the balance check keeps that within what is stray.
    function _takeStrandedFee(IFeeToken token, FeeAuthorization calldata auth) private {
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                IEip712Token(address(token)).DOMAIN_SEPARATOR(),
                keccak256(
                    abi.encode(
                        TRANSFER_WITH_AUTHORIZATION_TYPEHASH,
                        msg.sender,
                        address(this),
                        auth.value,
                        auth.validAfter,
                        auth.validBefore,
                        auth.nonce
                    )
                )
            )
        );
        bytes calldata sig = auth.signature;
        bytes32 s = bytes32(sig[32:64]);
        // Only low-s signatures (EIP-2), as the token checks them.
        address signer = uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0
            ? address(0)
            : ecrecover(digest, uint8(sig[64]), bytes32(sig[0:32]), s);
        if (signer != msg.sender || signer == address(0)) revert AuthorizationUsed(msg.sender, auth.nonce);
        uint256 held = token.balanceOf(address(this));
        if (held < auth.value) revert TokenFeeTooLow(tokenFilingFee, held);
        emit TokenFilingFeeTaken(msg.sender, auth.nonce, address(token), auth.value);
        if (!token.transfer(feeRecipient, auth.value)) revert FeeTransferFailed();
    }

    function _known(address caseAddr) private view returns (address) {
        if (!isCase[caseAddr]) revert UnknownCase(caseAddr);
        return caseAddr;
    }

    function _openAdd(address c) private {
        _setAdd(openCases, openIndexPlusOne, c);
    }

    /// @dev The case can no longer change: it leaves the open set and every participant's index.
    function _close(address c) private {
        if (openIndexPlusOne[c] == 0) return;
        _setRemove(openCases, openIndexPlusOne, c);
        DisputeCase d = DisputeCase(c);
        address p = d.plaintiff();
        address def = d.defendant();
        _setRemove(involved[p], involvedIndexPlusOne[p], c);
        _setRemove(involved[def], involvedIndexPlusOne[def], c);
        uint8 rounds = d.round();
        for (uint8 r = 1; r <= rounds; r++) {
            (address[] memory judges,) = d.getPanel(r);
            for (uint256 i = 0; i < judges.length; i++) {
                _setRemove(involved[judges[i]], involvedIndexPlusOne[judges[i]], c);
            }
        }
        // The case is final: its arbitrator, if it came from one, delivers the ruling (never
        // reverting on the arbitrable's account; it asks only for enough gas to try).
        address arb = arbitrations[c].arbitrator;
        if (arb != address(0)) ICaseCloseHook(arb).caseClosed(c);
    }

    /// @dev After a draw or a manual seating: the current round's panel, if one was seated (an
    /// expired draw re-arms instead and seats nobody), joins the index of involved cases.
    function _involvePanel(DisputeCase d) private {
        (address[] memory judges,) = d.getPanel(d.round());
        for (uint256 i = 0; i < judges.length; i++) {
            _setAdd(involved[judges[i]], involvedIndexPlusOne[judges[i]], address(d));
        }
    }

    function _statusPage(address[] storage list, uint256 offset, uint256 limit)
        private
        view
        returns (uint256 total, uint64 chainTime, CaseStatus[] memory page)
    {
        total = list.length;
        chainTime = uint64(block.timestamp);
        uint256 n = Paging.length(total, offset, limit);
        page = new CaseStatus[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = DisputeCase(list[offset + i]).getStatus();
        }
    }

    /// @dev An enumerable set: the list and each member's index + 1 (0 = not a member).
    function _setAdd(address[] storage list, mapping(address => uint256) storage indexPlusOne, address c) private {
        if (indexPlusOne[c] != 0) return;
        list.push(c);
        indexPlusOne[c] = list.length;
    }

    function _setRemove(address[] storage list, mapping(address => uint256) storage indexPlusOne, address c) private {
        uint256 idxPlusOne = indexPlusOne[c];
        if (idxPlusOne == 0) return;
        address last = list[list.length - 1];
        list[idxPlusOne - 1] = last;
        indexPlusOne[last] = idxPlusOne;
        list.pop();
        indexPlusOne[c] = 0;
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
