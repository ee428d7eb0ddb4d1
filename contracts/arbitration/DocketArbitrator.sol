// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, CaseTerms, DisputeFiling, Outcome} from "../interfaces/CourtTypes.sol";
import {IArbitrableV2} from "../interfaces/IArbitrableV2.sol";
import {IArbitratorV2} from "../interfaces/IArbitratorV2.sol";
import {Paging} from "../libraries/Paging.sol";
import {IArbitratorConsent} from "../interfaces/IArbitratorConsent.sol";
import {IArbitratedCase} from "../interfaces/IArbitratedCase.sol";
import {IArbitrationCourts} from "../interfaces/IArbitrationCourts.sol";
import {IArbitrationFactory} from "../interfaces/IArbitrationFactory.sol";

/// @title docket as a Kleros-style arbitrator (IArbitratorV2).
/// @notice An arbitrable contract (an escrow, a job evaluator) calls `createDispute(2, extraData)`
/// paying `arbitrationCost(extraData)`; the dispute becomes a docket case like any other, filed
/// through the CaseFactory in the named court (same judges, draw, evidence, votes, appeals, reads,
/// events), except that its parties stake nothing. When the case is final (after any appeal;
/// also a default or a dismissal) the factory tells this contract, which gives the ruling and
/// calls `rule(disputeID, ruling)` on the arbitrable, once, with at most RULING_GAS gas; a callback
/// that fails never blocks the case and leaves the ruling due for anyone to `executeRuling`.
///
/// extraData: `abi.encode(uint256 courtId, uint256 minJurors, uint256 disputeKitId, address plaintiff,
/// address defendant, string claim, string evidence)`: Kleros' first words (court, panel size, and
/// its dispute kit: 0 or 1, the classic kit; the court decides whether votes are public or
/// hidden), then the parties and the claim and evidence (a CID) the case is filed with.
/// `arbitrationCost` also takes the short forms (empty: the General court and its panel; two words:
/// court and panel). courtId 0 is the General court; minJurors below the court's panel size means
/// the court's panel size, an even number is raised to the next odd one, at most MAX_PANEL.
///
/// Cost: `filingFee + panel × minPartyStake`, the factory's filing fee and, for each judge seated in
/// the first round, one of the court's minimum party stakes (what the court asks a party to put at
/// risk, paid here by the arbitrable instead of the parties). The filing fee goes to the fee
/// recipient as for any filing; the rest stays in the case and pays, when the case ends with a
/// verdict, judgeRewardBps of it to the judges (of any round) who voted with the final outcome and
/// the remainder to the court treasury; without a verdict (default, dismissal) all of it to the
/// treasury. Nothing of it goes to a party. An appeal costs its bond, as in any case.
///
/// Rulings: 0 refused (the case was dismissed: no verdict), 1 the plaintiff won (also by the
/// defendant's default), 2 the defendant won.
///
/// The record: the parties extraData names answer, vote-worthy evidence and all, whoever they are,
/// but the case goes on a party's record (docket's cases won and lost, the court's ERC-8004
/// feedback) only if that party is the arbitrable itself or had let the arbitrable name it
/// (`setConsent`) when the dispute was filed; anybody can ask for a dispute, so naming a stranger
/// must not put a case on the stranger's record. The factory reads the consent at filing
/// (`consented`) and keeps it (CaseFactory.onRecord).
contract DocketArbitrator is IArbitratorV2, IArbitratorConsent {
    /// @notice The only number of choices a docket dispute has: plaintiff or defendant.
    /// @return The number of choices.
    uint256 public constant CHOICES = 2;
    /// @notice The gas the arbitrable's `rule` gets (the caller must leave this much and a margin).
    /// @return The gas.
    uint256 public constant RULING_GAS = 500_000;
    /// @notice The largest first-round panel a dispute may ask for.
    /// @return The panel size.
    uint256 public constant MAX_PANEL = 31;

    /// @notice Where the ruling stands: the case is not final yet; delivered; or its delivery failed
    /// (the ruling is due: anyone may `executeRuling`).
    enum RulingStatus {
        Pending,
        Delivered,
        Failed
    }

    struct Dispute {
        IArbitrableV2 arbitrable;
        address caseAddr;
        uint96 courtId;
        uint16 panelSize;
        uint8 ruling;
        RulingStatus status;
        uint256 cost;
    }

    /// @notice One dispute as the views return it.
    struct DisputeView {
        uint256 id;
        address arbitrable;
        address caseAddr;
        uint96 courtId;
        uint16 panelSize;
        uint256 cost;
        /// @dev Whether the case is final (then `ruling` is the ruling).
        bool ruled;
        uint8 ruling;
        RulingStatus status;
    }

    /// @notice A docket dispute has exactly CHOICES choices.
    /// @param required CHOICES.
    /// @param given The number asked for.
    error WrongChoices(uint256 required, uint256 given);
    /// @notice extraData is too short, or its court does not fit a court id.
    error ExtraDataInvalid();
    /// @notice Only dispute kit 0 or 1 (the classic kit) is supported.
    /// @param disputeKitId The kit asked for.
    error UnsupportedDisputeKit(uint256 disputeKitId);
    /// @notice The panel asked for is larger than MAX_PANEL.
    /// @param max MAX_PANEL.
    /// @param asked The jurors asked for.
    error PanelTooLarge(uint256 max, uint256 asked);
    /// @notice The value sent is not exactly the arbitration cost.
    /// @param required The cost.
    /// @param sent What was sent.
    error WrongArbitrationCost(uint256 required, uint256 sent);
    /// @notice The court has too few judges beyond the parties to seat the dispute's panel: it could
    /// only take the fee and dismiss the dispute.
    /// @param courtId The court.
    /// @param panel The panel the dispute needs.
    /// @param available The judges it could seat now.
    error CourtCannotSeatPanel(uint96 courtId, uint256 panel, uint256 available);
    /// @notice No dispute has this id.
    /// @param disputeID The id given.
    error UnknownDispute(uint256 disputeID);
    /// @notice The case is no dispute of this arbitrator.
    /// @param caseAddr The case.
    error UnknownCase(address caseAddr);
    /// @notice Only the factory reports cases final.
    error OnlyFactory();
    /// @notice The ruling is not due: the case is not final yet, or the ruling was delivered.
    /// @param disputeID The dispute.
    /// @param status Where its ruling stands.
    error RulingNotDue(uint256 disputeID, RulingStatus status);
    /// @notice The transaction has too little gas left to give the arbitrable's `rule` RULING_GAS;
    /// send it with more gas.
    /// @param required The gas that must be left.
    /// @param left The gas left.
    error NotEnoughGasForRuling(uint256 required, uint256 left);

    /// @notice docket filed the dispute as a case.
    /// @param disputeID The dispute.
    /// @param caseAddr The case.
    /// @param arbitrable Who asked for it (and gets the ruling).
    /// @param courtId The court it was filed in.
    /// @param panelSize The first round's panel size.
    /// @param cost What the arbitrable paid.
    event DisputeFiled(
        uint256 indexed disputeID,
        address indexed caseAddr,
        address indexed arbitrable,
        uint96 courtId,
        uint16 panelSize,
        uint256 cost
    );
    /// @notice The arbitrable accepted the ruling (its `rule` returned).
    /// @param disputeID The dispute.
    /// @param arbitrable The arbitrable.
    /// @param ruling The ruling.
    event RulingDelivered(uint256 indexed disputeID, address indexed arbitrable, uint256 ruling);
    /// @notice A party let an arbitrable name it in disputes on its record, or withdrew that.
    /// @param party The party.
    /// @param arbitrable The arbitrable.
    /// @param allowed Whether it may now.
    event ConsentSet(address indexed party, address indexed arbitrable, bool allowed);
    /// @notice The arbitrable's `rule` failed; the ruling stays due for `executeRuling`.
    /// @param disputeID The dispute.
    /// @param arbitrable The arbitrable.
    /// @param ruling The ruling.
    event RulingFailed(uint256 indexed disputeID, address indexed arbitrable, uint256 ruling);

    /// @notice The factory that files the cases (and reports them final).
    /// @return The CaseFactory.
    address public immutable factory;
    /// @notice The court registry whose courts' terms price a dispute.
    /// @return The CourtRegistry.
    address public immutable registry;

    Dispute[] private disputes;
    mapping(address => uint256) private disputeOfCasePlusOne;
    /// @dev Disputes whose ruling failed to deliver, enumerable (what a keeper looks for).
    uint256[] private failed;
    mapping(uint256 => uint256) private failedIndexPlusOne;
    // [records] consent to be named on record (issue #31, 3a)
    mapping(address => mapping(address => bool)) private consents;
    // [/records]

    /// @param factory_ The CaseFactory (whose owner then names this contract with `setArbitrator`).
    /// @param registry_ The CourtRegistry.
    constructor(address factory_, address registry_) {
        factory = factory_;
        registry = registry_;
    }

    // ------------------------------------------------------------------ IArbitratorV2

    /// @inheritdoc IArbitratorV2
    function arbitrationCost(bytes calldata extraData) public view returns (uint256 cost) {
        (uint96 courtId, uint256 minJurors) = _courtAndJurors(extraData);
        (, uint16 panel, CaseTerms memory terms) = _panel(courtId, minJurors);
        return IArbitrationFactory(factory).filingFee() + panel * terms.minPartyStake;
    }

    /// @inheritdoc IArbitratorV2
    function createDispute(uint256 numberOfChoices, bytes calldata extraData)
        external
        payable
        returns (uint256 disputeID)
    {
        if (numberOfChoices != CHOICES) revert WrongChoices(CHOICES, numberOfChoices);
        (DisputeFiling memory f, uint256 cost) = _filing(extraData);
        if (msg.value != cost) revert WrongArbitrationCost(cost, msg.value);
        // issue #31 (draw): a court that cannot seat the panel is refused before it takes the fee.
        uint256 seatable = IArbitrationCourts(registry).seatableJudges(f.courtId, f.plaintiff, f.defendant);
        if (seatable < f.panelSize) revert CourtCannotSeatPanel(f.courtId, f.panelSize, seatable);
        disputeID = disputes.length;
        f.arbitrable = msg.sender;
        f.disputeId = disputeID;
        disputes.push(Dispute(IArbitrableV2(msg.sender), address(0), f.courtId, f.panelSize, 0, RulingStatus.Pending, cost));
        address caseAddr = IArbitrationFactory(factory).fileDispute{value: cost}(f);
        disputes[disputeID].caseAddr = caseAddr;
        disputeOfCasePlusOne[caseAddr] = disputeID + 1;
        emit DisputeCreation(disputeID, IArbitrableV2(msg.sender));
        emit DisputeFiled(disputeID, caseAddr, msg.sender, f.courtId, f.panelSize, cost);
    }

    /// @dev The filing the full extraData asks for (its court resolved, its panel sized) and its cost.
    function _filing(bytes calldata extraData) private view returns (DisputeFiling memory f, uint256 cost) {
        if (extraData.length < 7 * 32) revert ExtraDataInvalid();
        uint256 courtWord;
        uint256 minJurors;
        uint256 kit;
        (courtWord, minJurors, kit, f.plaintiff, f.defendant, f.claimDescription, f.evidenceIpfsHash) =
            abi.decode(extraData, (uint256, uint256, uint256, address, address, string, string));
        if (kit > 1) revert UnsupportedDisputeKit(kit);
        if (courtWord > type(uint96).max) revert ExtraDataInvalid();
        CaseTerms memory terms;
        (f.courtId, f.panelSize, terms) = _panel(uint96(courtWord), minJurors);
        cost = IArbitrationFactory(factory).filingFee() + f.panelSize * terms.minPartyStake;
    }

    /// @inheritdoc IArbitratorV2
    function currentRuling(uint256 disputeID) external view returns (uint256 ruling, bool tied, bool overridden) {
        Dispute storage d = _dispute(disputeID);
        (, ruling) = _rulingOf(d.caseAddr);
        return (ruling, false, false);
    }

    // [records] consent to be named on record (issue #31, 3a)

    /// @notice The caller lets `arbitrable` name it as a party in disputes that then go on its
    /// record (docket's record and the court's ERC-8004 feedback), or withdraws that; disputes filed
    /// meanwhile keep what held at their filing.
    /// @param arbitrable The arbitrable (an escrow, a job evaluator).
    /// @param allowed Whether it may.
    function setConsent(address arbitrable, bool allowed) external {
        consents[msg.sender][arbitrable] = allowed;
        emit ConsentSet(msg.sender, arbitrable, allowed);
    }

    /// @inheritdoc IArbitratorConsent
    function consented(address party, address arbitrable) external view returns (bool) {
        return party == arbitrable || consents[party][arbitrable];
    }
    // [/records]

    // ------------------------------------------------------------------ rulings

    /// @notice The factory reports a case it filed for this arbitrator final: the ruling is given
    /// (`Ruling`) and delivered to the arbitrable, or left due if its `rule` fails.
    /// @param caseAddr The case.
    function caseClosed(address caseAddr) external {
        if (msg.sender != factory) revert OnlyFactory();
        uint256 idPlusOne = disputeOfCasePlusOne[caseAddr];
        if (idPlusOne == 0) revert UnknownCase(caseAddr);
        uint256 id = idPlusOne - 1;
        Dispute storage d = disputes[id];
        (, uint256 ruling) = _rulingOf(caseAddr);
        d.ruling = uint8(ruling);
        emit Ruling(d.arbitrable, id, ruling);
        _deliver(id, d);
    }

    /// @notice Anyone retries delivering a ruling whose delivery failed.
    /// @param disputeID The dispute.
    function executeRuling(uint256 disputeID) external {
        Dispute storage d = _dispute(disputeID);
        if (d.status != RulingStatus.Failed) revert RulingNotDue(disputeID, d.status);
        _deliver(disputeID, d);
    }

    // ------------------------------------------------------------------ views

    /// @notice One dispute.
    /// @param disputeID The dispute.
    /// @return v The dispute, its case and its ruling.
    function getDispute(uint256 disputeID) public view returns (DisputeView memory v) {
        Dispute storage d = _dispute(disputeID);
        (bool final_, uint256 ruling) = _rulingOf(d.caseAddr);
        v = DisputeView(
            disputeID, address(d.arbitrable), d.caseAddr, d.courtId, d.panelSize, d.cost, final_, uint8(ruling), d.status
        );
    }

    /// @notice The dispute a case was filed for.
    /// @param caseAddr The case.
    /// @return exists False for a case that is no dispute of this arbitrator.
    /// @return disputeID The dispute.
    function disputeOfCase(address caseAddr) external view returns (bool exists, uint256 disputeID) {
        uint256 idPlusOne = disputeOfCasePlusOne[caseAddr];
        return (idPlusOne != 0, idPlusOne == 0 ? 0 : idPlusOne - 1);
    }

    /// @notice How many disputes were created (ids 0 to count - 1).
    /// @return The count.
    function disputeCount() external view returns (uint256) {
        return disputes.length;
    }

    /// @notice A page of the disputes whose ruling is due (delivery failed), unordered, with their total.
    /// @param offset Skip this many.
    /// @param limit At most this many.
    /// @return total How many are due.
    /// @return page Those disputes.
    function getDueRulings(uint256 offset, uint256 limit)
        external
        view
        returns (uint256 total, DisputeView[] memory page)
    {
        total = failed.length;
        uint256 n = Paging.length(total, offset, limit);
        page = new DisputeView[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = getDispute(failed[offset + i]);
        }
    }

    /// @notice The longest a dispute with these parameters can take from filing to a final ruling,
    /// in seconds, if every step is taken at its deadline: the response window, a draw and a vote
    /// in each of two rounds (a deliberation period to draw, then the deliberation period or the
    /// commit and reveal periods to vote), and the appeal window; plus the second after a deadline
    /// that `resolveAfterDeadline` needs, once for the appeal that lapses and, with hidden votes,
    /// once more for the first round counted at its reveal deadline. An escrow that must have its
    /// ruling before a date refuses a dispute that could end later.
    /// @param extraData As for `arbitrationCost`.
    /// @return duration Seconds.
    function maxDuration(bytes calldata extraData) external view returns (uint256 duration) {
        (uint96 courtId,) = _courtAndJurors(extraData);
        (,, CaseTerms memory t) = IArbitrationCourts(registry).caseConfig(courtId);
        uint256 voting = t.hiddenVotes ? uint256(t.commitPeriod) + t.revealPeriod : t.deliberationPeriod;
        uint256 lateSeconds = t.hiddenVotes ? 2 : 1;
        return uint256(t.responseWindow) + t.appealWindow + 2 * (uint256(t.deliberationPeriod) + voting) + lateSeconds;
    }

    // ------------------------------------------------------------------ internal

    function _dispute(uint256 disputeID) private view returns (Dispute storage) {
        if (disputeID >= disputes.length) revert UnknownDispute(disputeID);
        return disputes[disputeID];
    }

    /// @dev The court and juror words of extraData: none (the General court, its panel), or the first two.
    function _courtAndJurors(bytes calldata extraData) private pure returns (uint96 courtId, uint256 minJurors) {
        if (extraData.length < 64) return (0, 0);
        uint256 c;
        (c, minJurors) = abi.decode(extraData[0:64], (uint256, uint256));
        if (c > type(uint96).max) revert ExtraDataInvalid();
        courtId = uint96(c);
    }

    /// @dev The court's terms and the first round's panel for `minJurors`.
    function _panel(uint96 courtId, uint256 minJurors)
        private
        view
        returns (uint96 court, uint16 panel, CaseTerms memory terms)
    {
        (court,, terms) = IArbitrationCourts(registry).caseConfig(courtId);
        uint256 p = minJurors < terms.panelSize ? terms.panelSize : minJurors;
        if (p % 2 == 0) p += 1;
        if (p > MAX_PANEL) revert PanelTooLarge(MAX_PANEL, minJurors);
        panel = uint16(p);
    }

    /// @dev Whether the case is final, and its ruling then (0 dismissed, 1 plaintiff, 2 defendant).
    function _rulingOf(address caseAddr) private view returns (bool final_, uint256 ruling) {
        IArbitratedCase c = IArbitratedCase(caseAddr);
        CaseState s = c.state();
        final_ = s == CaseState.Defaulted || s == CaseState.Dismissed || (s == CaseState.Resolved && c.settled());
        Outcome o = c.outcome();
        if (o == Outcome.PlaintiffWon) ruling = 1;
        else if (o == Outcome.DefendantWon) ruling = 2;
    }

    /// @dev Calls the arbitrable's `rule` with RULING_GAS gas (no return data copied). The whole
    /// transaction reverts if it was sent with too little gas to give the callback its RULING_GAS
    /// (so a gas estimate never settles on a limit at which the callback always fails); the
    /// callback's own failure is caught and leaves the ruling due.
    function _deliver(uint256 id, Dispute storage d) private {
        uint256 need = RULING_GAS + RULING_GAS / 63 + 20_000;
        if (gasleft() < need) revert NotEnoughGasForRuling(need, gasleft());
        address arbitrable = address(d.arbitrable);
        uint256 ruling = d.ruling;
        RulingStatus before = d.status;
        // Marked delivered first: a callback that re-enters `executeRuling` finds nothing due.
        d.status = RulingStatus.Delivered;
        bytes memory data = abi.encodeCall(IArbitrableV2.rule, (id, ruling));
        bool ok;
        uint256 gasForRuling = RULING_GAS;
        assembly {
            ok := call(gasForRuling, arbitrable, 0, add(data, 32), mload(data), 0, 0)
        }
        if (ok) {
            if (before == RulingStatus.Failed) _removeFailed(id);
            emit RulingDelivered(id, arbitrable, ruling);
        } else {
            d.status = RulingStatus.Failed;
            if (before != RulingStatus.Failed) {
                failed.push(id);
                failedIndexPlusOne[id] = failed.length;
            }
            emit RulingFailed(id, arbitrable, ruling);
        }
    }

    function _removeFailed(uint256 id) private {
        uint256 idx = failedIndexPlusOne[id];
        uint256 last = failed[failed.length - 1];
        failed[idx - 1] = last;
        failedIndexPlusOne[last] = idx;
        failed.pop();
        failedIndexPlusOne[id] = 0;
    }
}
