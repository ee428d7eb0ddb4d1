// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, CaseTerms, CaseView, CaseSummary, CaseStatus, ICaseFactory, IDrawEntropy, IFeeToken} from "./ICourt.sol";
import {DisputeCase} from "./DisputeCase.sol";
import {CourtRegistry} from "./CourtRegistry.sol";

/// @title Files cases and seats their judges; the gateway's single place to read cases from.
/// @notice Each case is a minimal clone (EIP-1167) of one DisputeCase implementation, so every case
/// has its own address. The filing fee is paid here first (`payFilingFee`, with a reference the
/// payer chooses), forwarded to the fee recipient and recorded; `fileCase` takes only a reference
/// its own caller paid and has not used, so the fee holds for anyone who goes to the chain directly.
/// The fee may also be paid in a token (`feeToken`, the x402 "exact" scheme's EIP-3009 payment): the
/// plaintiff authorises a transfer of at least `tokenFilingFee` to this factory, anyone (a facilitator)
/// submits it to the token, and the authorization's nonce is the reference `fileCase` takes; the
/// factory forwards that fee to the fee recipient when the case is filed.
contract CaseFactory is ICaseFactory {
    uint256 public constant MAX_CLAIM_LENGTH = 2000;
    uint256 public constant MAX_HASH_LENGTH = 128;
    uint256 public constant STATE_COUNT = 8;

    error OnlyOwner();
    error OnlyCase();
    error UnknownCase(address caseAddr);
    error InvalidDefendant();
    error ClaimRequired();
    error ClaimTooLong(uint256 max);
    error EvidenceHashInvalid();
    error PaymentRefRequired();
    error PaymentRefUsed(bytes32 paymentRef, address caseAddr);
    error FilingFeeNotPaid(bytes32 paymentRef, address plaintiff);
    error FilingFeeAlreadyPaid(bytes32 paymentRef);
    error FilingFeeTooLow(uint256 required, uint256 sent);
    error FeeTransferFailed();
    error TokenFeeTooLow(uint256 required, uint256 paid);
    error StakeBelowMinimum(uint256 minimum, uint256 sent);
    error InvalidParameter();
    error CloneFailed();

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
    event FilingFeePaid(address indexed payer, bytes32 indexed paymentRef, uint256 amount);
    /// @notice Emitted on every change to any case, so one log filter follows them all.
    event CaseChanged(address indexed caseAddr, CaseState state);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event FilingChanged(address feeRecipient, uint256 filingFee);
    event TokenFeeChanged(address feeToken, uint256 tokenFilingFee);
    /// @notice A filing took a token fee (an EIP-3009 authorization to this factory) and forwarded it.
    event TokenFilingFeeTaken(address indexed payer, bytes32 indexed paymentRef, address token, uint256 amount);

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

    struct Stats {
        uint256 totalCases;
        uint256[8] byState;
        uint256 openCases;
    }

    address public owner;
    CourtRegistry public immutable registry;
    address public immutable implementation;
    IDrawEntropy public immutable entropy;
    address public feeRecipient;
    uint256 public filingFee;
    /// @notice The token a filing fee may also be paid in (zero: native coin only), and its fee.
    IFeeToken public feeToken;
    uint256 public tokenFilingFee;

    address[] private cases;
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
    constructor(CourtRegistry registry_, IDrawEntropy entropy_, address feeRecipient_, uint256 filingFee_) {
        if (feeRecipient_ == address(0) || address(entropy_) == address(0)) revert InvalidParameter();
        owner = msg.sender;
        registry = registry_;
        implementation = address(new DisputeCase());
        entropy = entropy_;
        feeRecipient = feeRecipient_;
        filingFee = filingFee_;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert OnlyOwner();
        _;
    }

    // ----------------------------------------------------------------- writes

    /// @notice Pays the filing fee for one future case under `paymentRef` (any non-zero value the
    /// payer picks, unique for it). The fee goes straight to the fee recipient.
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
        (bytes32 refKey, uint256 tokenFee) = _takePayment(paymentRef);

        caseAddr = _clone(implementation);
        refUsedBy[refKey] = caseAddr;
        if (tokenFee != 0) {
            emit TokenFilingFeeTaken(msg.sender, paymentRef, address(feeToken), tokenFee);
            if (!feeToken.transfer(feeRecipient, tokenFee)) revert FeeTransferFailed();
        }
        isCase[caseAddr] = true;
        cases.push(caseAddr);
        registry.registerCase(caseAddr);
        _openAdd(caseAddr);
        _setAdd(involved[msg.sender], involvedIndexPlusOne[msg.sender], caseAddr);
        _setAdd(involved[defendant], involvedIndexPlusOne[defendant], caseAddr);
        countByState[uint256(CaseState.Summoned)] += 1;
        _initialize(caseAddr, courtId, defendant, claimDescription, evidenceIpfsHash, paymentRef);
        emit CaseChanged(caseAddr, CaseState.Summoned);
    }

    /// @notice Executes the case's armed draw (stake-weighted, from the entropy source). Anyone may
    /// call it (a keeper); the caller chooses nothing about the panel.
    function assignJudgesRandom(address caseAddr) external {
        DisputeCase(_known(caseAddr)).drawJudges();
        _involvePanel(DisputeCase(caseAddr));
    }

    /// @notice The owner's manual override: seats the given judges.
    function assignJudges(address caseAddr, address[] calldata judges) external onlyOwner {
        DisputeCase(_known(caseAddr)).setJudges(judges);
        _involvePanel(DisputeCase(caseAddr));
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert InvalidParameter();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setFiling(address feeRecipient_, uint256 filingFee_) external onlyOwner {
        if (feeRecipient_ == address(0)) revert InvalidParameter();
        feeRecipient = feeRecipient_;
        filingFee = filingFee_;
        emit FilingChanged(feeRecipient_, filingFee_);
    }

    /// @notice Lets the filing fee also be paid in `token` (`fee` in its units); the zero address
    /// turns it off. References already paid in the old token can no longer file.
    function setTokenFee(address token, uint256 fee) external onlyOwner {
        if (token != address(0) && fee == 0) revert InvalidParameter();
        feeToken = IFeeToken(token);
        tokenFilingFee = fee;
        emit TokenFeeChanged(token, fee);
    }

    /// @notice Cases report every change here: counts stay exact and one event follows them all.
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
    function getCase(address caseAddr) external view returns (bool exists, CaseView memory view_) {
        if (!isCase[caseAddr]) return (false, view_);
        return (true, DisputeCase(caseAddr).getCase());
    }

    /// @notice A page of case addresses in filing order, with the total.
    function getCases(uint256 offset, uint256 limit) external view returns (uint256 total, address[] memory page) {
        total = cases.length;
        uint256 n = _pageLength(total, offset, limit);
        page = new address[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = cases[offset + i];
        }
    }

    /// @notice Summaries of every case that can still change, optionally only those in `state`.
    function getOpenCases(bool filterByState, CaseState state) external view returns (CaseSummary[] memory out) {
        out = new CaseSummary[](openCases.length);
        uint256 n = 0;
        for (uint256 i = 0; i < openCases.length; i++) {
            DisputeCase c = DisputeCase(openCases[i]);
            if (filterByState && c.state() != state) continue;
            out[n++] = c.getSummary();
        }
        assembly {
            mstore(out, n)
        }
    }

    /// @notice A page of the cases in Deliberating (judges voting), with their total.
    function getDeliberatingCases(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, CaseSummary[] memory page)
    {
        total = deliberating.length;
        uint256 n = _pageLength(total, offset, limit);
        page = new CaseSummary[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = DisputeCase(deliberating[offset + i]).getSummary();
        }
    }

    /// @notice A page of what decides who may act now on the open cases `who` takes part in (as a
    /// party, or a judge of either round), with their total and the chain time it was read at.
    /// The set is unordered: a case that closes is swapped out for the last one, so a walk over
    /// pages while cases close can skip or repeat a case; compare `total` between pages.
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
    function getCaseStatuses(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, uint64 chainTime, CaseStatus[] memory page)
    {
        return _statusPage(openCases, offset, limit);
    }

    /// @notice How many open cases `who` takes part in: `getInvolvedCases`'s total.
    function involvedCount(address who) external view returns (uint256) {
        return involved[who].length;
    }

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
    function paymentRefUsedBy(bytes32 paymentRef, address plaintiff) external view returns (address) {
        return refUsedBy[keccak256(abi.encode(paymentRef, plaintiff))];
    }

    /// @notice The filing fee `payer` paid under `paymentRef`, and the case that used it, if any.
    function feePayment(bytes32 paymentRef, address payer)
        external
        view
        returns (bool paid, uint256 amount, address usedBy)
    {
        bytes32 refKey = keccak256(abi.encode(paymentRef, payer));
        uint256 p = feePaidPlusOne[refKey];
        return (p != 0, p == 0 ? 0 : p - 1, refUsedBy[refKey]);
    }

    function caseCount() external view returns (uint256) {
        return cases.length;
    }

    // --------------------------------------------------------------- internal

    function _checkFiling(address defendant, string calldata claimDescription, string calldata evidenceIpfsHash)
        private
        view
    {
        if (defendant == address(0) || defendant == msg.sender) revert InvalidDefendant();
        uint256 claimLength = bytes(claimDescription).length;
        if (claimLength == 0) revert ClaimRequired();
        if (claimLength > MAX_CLAIM_LENGTH) revert ClaimTooLong(MAX_CLAIM_LENGTH);
        uint256 hashLength = bytes(evidenceIpfsHash).length;
        if (hashLength == 0 || hashLength > MAX_HASH_LENGTH) revert EvidenceHashInvalid();
    }

    /// @dev The caller's paid, unused fee under `paymentRef`, or a revert saying which it is not: a
    /// fee paid with `payFilingFee`, else an authorization of the caller's, with `paymentRef` as its
    /// nonce, that moved at least the token fee to this factory (then `tokenFee` is what it moved, to
    /// forward). Keyed by the caller, so nobody files with another's payment; one case per reference.
    function _takePayment(bytes32 paymentRef) private view returns (bytes32 refKey, uint256 tokenFee) {
        if (paymentRef == bytes32(0)) revert PaymentRefRequired();
        refKey = keccak256(abi.encode(paymentRef, msg.sender));
        address usedBy = refUsedBy[refKey];
        if (usedBy != address(0)) revert PaymentRefUsed(paymentRef, usedBy);
        if (feePaidPlusOne[refKey] != 0) return (refKey, 0);
        if (address(feeToken) == address(0)) revert FilingFeeNotPaid(paymentRef, msg.sender);
        (address to, uint256 value) = feeToken.authorization(msg.sender, paymentRef);
        if (to != address(this)) revert FilingFeeNotPaid(paymentRef, msg.sender);
        if (value < tokenFilingFee) revert TokenFeeTooLow(tokenFilingFee, value);
        return (refKey, value);
    }

    /// @dev Copies the court's terms into the new case (its stake must reach the court's minimum).
    function _initialize(
        address caseAddr,
        uint96 courtId,
        address defendant,
        string calldata claimDescription,
        string calldata evidenceIpfsHash,
        bytes32 paymentRef
    ) private {
        (uint96 court, uint96 appealCourt, CaseTerms memory terms) = registry.caseConfig(courtId);
        if (msg.value < terms.minPartyStake) revert StakeBelowMinimum(terms.minPartyStake, msg.value);
        emit CaseFiled(caseAddr, msg.sender, defendant, paymentRef, msg.value, court);
        DisputeCase(caseAddr).initialize{value: msg.value}(
            address(registry),
            address(entropy),
            msg.sender,
            defendant,
            claimDescription,
            evidenceIpfsHash,
            terms,
            court,
            appealCourt
        );
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
        uint256 n = _pageLength(total, offset, limit);
        page = new CaseStatus[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = DisputeCase(list[offset + i]).getStatus();
        }
    }

    /// @dev How many of `total` items a page from `offset` holds, at most `limit`. Written so that
    /// no offset or limit can overflow: a huge limit means "to the end".
    function _pageLength(uint256 total, uint256 offset, uint256 limit) private pure returns (uint256 n) {
        n = offset >= total ? 0 : total - offset;
        if (limit < n) n = limit;
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
