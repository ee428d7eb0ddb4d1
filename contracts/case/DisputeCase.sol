// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, Outcome, CaseTerms, CaseView, CaseSummary, CaseStatus, VoteView} from "../interfaces/CourtTypes.sol";
import {ICourtRegistry} from "../interfaces/ICourtRegistry.sol";
import {IDrawEntropy} from "../interfaces/IDrawEntropy.sol";
import {CaseData, WrongState, DeliberationClosed} from "./CaseStore.sol";
import {CaseRules} from "./CaseRules.sol";
import {CaseVoting} from "./CaseVoting.sol";
import {CasePayouts} from "./CasePayouts.sol";

/// @title One dispute between a plaintiff and a defendant: its lifecycle core.
/// @notice Deployed by the CaseFactory as a minimal clone, so each case has its own address.
/// Roles, as Kleros v2 splits them: this contract is the core (filing, the defendant's answer,
/// evidence, drawing and seating the panel, the appeal, every check of state and reentrancy, the
/// views); voting (public votes, hidden votes' commit and reveal, the tally, the verdict) is
/// CaseVoting, and the books (the final payout, judges' scores and release, refunds, deferred
/// payments) are CasePayouts: linked libraries the case runs by DELEGATECALL on its own storage
/// (`CaseData`), so state, money and events all stay the case's. Sortition is the registry's
/// (CourtRegistry, SortitionTree), entropy the IDrawEntropy source's.
/// Money: the case holds the party stakes and the appeal bond, and pays them out once, when the
/// case ends (settle, default, dismissal, or the appeal verdict). A payout that a recipient
/// refuses is kept for it to withdraw, so no recipient can block the case.
/// Panels: when a case becomes ready for judges it arms a draw (entropy source + the pool as of that
/// block); anyone may execute it once the entropy exists, and nobody's input changes who is drawn.
/// Votes: public, or hidden (commit a hash, then reveal it) when the court's terms say so.
/// Judges of every round are scored once, against the case's final outcome.
/// Courts: the case is filed in a court and copies its terms (panel sizes included); its first
/// round is drawn from that court's pool, its appeal from `appealCourtId`'s (the parent court when
/// the appeal panel reaches the court's jump size). An appeal that ends without a verdict (no panel
/// seated, or no majority, by the deadline) leaves the first-round verdict standing.
contract DisputeCase {
    using CaseRules for CaseData;

    /// @notice Evidence items each party may add in each round (two parties, two rounds: 64 in all),
    /// so one party can never fill the slots the other needs.
    /// @return The most items per party and round.
    uint256 public constant MAX_EVIDENCE_PER_PARTY_ROUND = 16;
    /// @notice Longest evidence reference, in bytes.
    /// @return The most bytes.
    uint256 public constant MAX_HASH_LENGTH = 128;
    /// @notice Longest reasons a judge may reveal with a hidden vote, in bytes.
    /// @return The most bytes.
    uint256 public constant MAX_JUSTIFICATION_LENGTH = CaseVoting.MAX_JUSTIFICATION_LENGTH;

    /// @notice `initialize` was called already (or this is the implementation, never a case).
    error AlreadyInitialized();
    /// @notice Only the factory may call this.
    error OnlyFactory();
    /// @notice Only the defendant may respond.
    error OnlyDefendant();
    /// @notice Only a party may submit evidence.
    error OnlyParty();
    /// @notice Only the first round's loser may appeal.
    error OnlyLosingParty();
    /// @notice The response window is over.
    /// @param deadline The response deadline.
    error ResponseWindowClosed(uint64 deadline);
    /// @notice The response window is still open.
    /// @param deadline The response deadline.
    error ResponseWindowStillOpen(uint64 deadline);
    /// @notice The appeal window is over.
    /// @param deadline The appeal deadline.
    error AppealWindowClosed(uint64 deadline);
    /// @notice The appeal window is still open.
    /// @param deadline The appeal deadline.
    error AppealWindowStillOpen(uint64 deadline);
    /// @notice The case was appealed already (one appeal per case).
    error AppealAlreadyUsed();
    /// @notice The value sent is not the appeal bond.
    /// @param required The appeal bond.
    /// @param sent The value sent.
    error WrongAppealBond(uint256 required, uint256 sent);
    /// @notice The defendant's stake is below the court's minimum.
    /// @param minimum The minimum party stake.
    /// @param sent The value sent.
    error StakeBelowMinimum(uint256 minimum, uint256 sent);
    /// @notice An evidence reference must be 1 to MAX_HASH_LENGTH bytes.
    error EvidenceHashInvalid();
    /// @notice The party added MAX_EVIDENCE_PER_PARTY_ROUND items in this round already.
    /// @param max The most items per party and round.
    error TooMuchEvidence(uint256 max);
    /// @notice A manual panel must have the round's panel size.
    /// @param required The panel size.
    /// @param given The judges given.
    error WrongPanelSize(uint256 required, uint256 given);
    /// @notice The judge is not staked (enough) in the court that seats the round.
    /// @param judge The judge.
    error JudgeNotEligible(address judge);
    /// @notice A party cannot judge its own case.
    /// @param judge The judge.
    error JudgeIsParty(address judge);
    /// @notice A judge of the first round cannot sit on the appeal.
    /// @param judge The judge.
    error JudgeAlreadyServed(address judge);
    /// @notice A judge was named twice.
    /// @param judge The judge.
    error DuplicateJudge(address judge);
    /// @notice The registry's refusal of a draw, surfacing through `drawJudges`: the pool has too few
    /// eligible judges.
    /// @param available The eligible judges.
    /// @param required The panel size.
    error NotEnoughJudges(uint256 available, uint256 required);
    /// @notice The call re-entered the case.
    error Reentrancy();
    /// @notice The armed draw's entropy is not there yet.
    /// @param ticket The entropy ticket.
    error DrawNotReady(uint256 ticket);

    /// @notice The defendant answered the summons.
    /// @param defendant The defendant.
    /// @param stake The defendant's stake.
    event Responded(address indexed defendant, uint256 stake);
    /// @notice A party added evidence.
    /// @param submitter The party.
    /// @param evidenceIpfsHash The evidence's content reference.
    event EvidenceSubmitted(address indexed submitter, string evidenceIpfsHash);
    /// @notice A panel was seated.
    /// @param round The round.
    /// @param judges The panel.
    event JudgesAssigned(uint8 round, address[] judges);
    /// @notice A draw was armed: its entropy ticket, and the block whose judge pool it reads.
    /// @param round The round.
    /// @param ticket The entropy source's ticket.
    /// @param poolBlock The block whose end state of the pool the draw reads.
    event DrawArmed(uint8 round, uint256 ticket, uint64 poolBlock);
    /// @notice The losing party appealed.
    /// @param appellant The appellant.
    /// @param bond The appeal bond posted.
    event Appealed(address indexed appellant, uint256 bond);
    // CaseVoting emits VoteCast, VoteCommitted, VoteRevealed and Verdict from the case; CasePayouts
    // Settled, Defaulted, Dismissed, PaymentDeferred and Withdrawn. scripts/build-contracts.ts adds
    // the events and errors of the linked libraries to this contract's ABI.

    /// @notice One evidence item.
    struct Evidence {
        address submitter;
        uint64 submittedAt;
        string hash;
    }

    /// @dev `getStatus().drawStatus` when no draw is awaited.
    uint8 private constant NO_DRAW = 255;
    /// @dev Only in views: committed, not revealed yet.
    uint8 private constant COMMITTED = 3;

    // The case's record, which the roles share, is `c` (CaseData); the core alone keeps the rest.
    bool private initialized;
    bool private locked;
    /// @notice The draw entropy source.
    /// @return The source.
    IDrawEntropy public entropy;
    CaseData private c;
    /// @notice The court the case was filed in.
    /// @return The court's id.
    uint96 public courtId;
    /// @notice The court whose pool seats the appeal (the parent court when the appeal panel reaches
    /// the court's jump size).
    /// @return The court's id.
    uint96 public appealCourtId;
    /// @notice The armed draw's entropy ticket.
    /// @return The ticket.
    uint256 public drawTicket;
    /// @notice The claim.
    /// @return The claim.
    string public claimDescription;
    /// @notice The plaintiff's evidence reference.
    /// @return The reference.
    string public evidenceIpfsHash;
    Evidence[] private evidence;
    /// @dev Evidence items added, by round and party.
    mapping(uint8 => mapping(address => uint256)) private evidenceAdded;

    constructor() {
        // The implementation behind the clones is never a case itself.
        initialized = true;
    }

    modifier nonReentrant() {
        if (locked) revert Reentrancy();
        locked = true;
        _;
        locked = false;
    }

    modifier inState(CaseState st) {
        if (c.state != st) revert WrongState(c.state);
        _;
    }

    /// @notice Called once by the factory right after cloning, with the plaintiff's stake.
    /// @param registry_ The court registry (judge pools and records).
    /// @param entropy_ The draw entropy source.
    /// @param plaintiff_ The plaintiff.
    /// @param defendant_ The defendant.
    /// @param claimDescription_ The claim.
    /// @param evidenceIpfsHash_ The plaintiff's evidence reference.
    /// @param terms_ The court's terms at filing, fixed for the case's life.
    /// @param courtId_ The court the case is filed in.
    /// @param appealCourtId_ The court whose pool seats the appeal.
    /// @param arbitrationFee_ The part of the value that is an arbitration fee, not a stake (0 but
    /// for a case filed through the arbitrator, whose parties stake nothing).
    function initialize(
        address registry_,
        address entropy_,
        address plaintiff_,
        address defendant_,
        string calldata claimDescription_,
        string calldata evidenceIpfsHash_,
        CaseTerms calldata terms_,
        uint96 courtId_,
        uint96 appealCourtId_,
        uint256 arbitrationFee_
    ) external payable {
        if (initialized) revert AlreadyInitialized();
        initialized = true;
        entropy = IDrawEntropy(entropy_);
        c.factory = msg.sender;
        c.registry = ICourtRegistry(registry_);
        c.terms = terms_;
        courtId = courtId_;
        appealCourtId = appealCourtId_;
        c.plaintiff = plaintiff_;
        c.defendant = defendant_;
        claimDescription = claimDescription_;
        evidenceIpfsHash = evidenceIpfsHash_;
        c.plaintiffStake = msg.value - arbitrationFee_;
        c.arbitrationFee = arbitrationFee_;
        c.filedAt = uint64(block.timestamp);
        c.responseDeadline = uint64(block.timestamp) + terms_.responseWindow;
        c.round = 1;
        // Filed is only the state before initialisation; a filed case is summoned at once.
        c.state = CaseState.Summoned;
    }

    // ----------------------------------------------------------------- parties

    /// @notice The defendant answers the summons with a stake, before the response deadline.
    function respond() external payable nonReentrant inState(CaseState.Summoned) {
        if (msg.sender != c.defendant) revert OnlyDefendant();
        if (block.timestamp > c.responseDeadline) revert ResponseWindowClosed(c.responseDeadline);
        uint256 minimum = c.terms.minPartyStake;
        if (msg.value < minimum) revert StakeBelowMinimum(minimum, msg.value);
        c.defendantStake = msg.value;
        _armDraw();
        // Judges must be drawn and must vote within one deliberation period from here.
        c.deliberationDeadline = uint64(block.timestamp) + c.terms.deliberationPeriod;
        emit Responded(msg.sender, msg.value);
        c.moveTo(CaseState.Active);
    }

    /// @notice Either party adds a content hash while the case is being heard, at most
    /// MAX_EVIDENCE_PER_PARTY_ROUND per party in each round.
    /// @param hash The evidence's content reference (an IPFS CID), 1 to MAX_HASH_LENGTH bytes.
    function submitEvidence(string calldata hash) external {
        if (msg.sender != c.plaintiff && msg.sender != c.defendant) revert OnlyParty();
        CaseState st = c.state;
        if (st != CaseState.Active && st != CaseState.Deliberating) revert WrongState(st);
        uint256 len = bytes(hash).length;
        if (len == 0 || len > MAX_HASH_LENGTH) revert EvidenceHashInvalid();
        uint8 r = c.round;
        uint256 added = evidenceAdded[r][msg.sender];
        if (added >= MAX_EVIDENCE_PER_PARTY_ROUND) revert TooMuchEvidence(MAX_EVIDENCE_PER_PARTY_ROUND);
        evidenceAdded[r][msg.sender] = added + 1;
        evidence.push(Evidence(msg.sender, uint64(block.timestamp), hash));
        emit EvidenceSubmitted(msg.sender, hash);
        c.touched();
    }

    /// @notice After the response deadline passes unanswered, anyone may end the case for the plaintiff.
    function triggerDefault() external nonReentrant inState(CaseState.Summoned) {
        if (block.timestamp <= c.responseDeadline) revert ResponseWindowStillOpen(c.responseDeadline);
        CasePayouts.payDefault(c);
    }

    /// @notice The losing party appeals once, within the appeal window, posting the appeal bond.
    function appeal() external payable nonReentrant inState(CaseState.Resolved) {
        if (c.appealUsed) revert AppealAlreadyUsed();
        if (msg.sender != c.firstRoundLoser) revert OnlyLosingParty();
        if (block.timestamp > c.appealDeadline) revert AppealWindowClosed(c.appealDeadline);
        uint256 bond = c.terms.appealBond;
        if (msg.value != bond) revert WrongAppealBond(bond, msg.value);
        c.appealUsed = true;
        c.appealBondPaid = msg.value;
        c.round = 2;
        c.outcome = Outcome.None;
        c.resolvedAt = 0;
        c.reasonCode = 0;
        c.deliberationDeadline = uint64(block.timestamp) + c.terms.deliberationPeriod;
        _armDraw();
        emit Appealed(msg.sender, msg.value);
        c.moveTo(CaseState.Appealed);
    }

    /// @notice After the appeal window closes unused, anyone may pay out the verdict.
    function settle() external nonReentrant inState(CaseState.Resolved) {
        if (c.settled) revert WrongState(c.state);
        if (block.timestamp <= c.appealDeadline) revert AppealWindowStillOpen(c.appealDeadline);
        CasePayouts.finalize(c, false);
    }

    /// @notice Collects a payout that could not be pushed when the case ended.
    function withdraw() external nonReentrant {
        CasePayouts.withdraw(c);
    }

    // ------------------------------------------------------------------ judges

    /// @notice Seats a panel chosen by the factory owner (manual override).
    /// @param judges The panel: the round's panel size, each staked in the court that seats the
    /// round, no party, no duplicate, on appeal no judge of the first round.
    function setJudges(address[] calldata judges) external {
        if (msg.sender != c.factory) revert OnlyFactory();
        _requireAwaitingPanel();
        uint256 size = c.panelSize();
        if (judges.length != size) revert WrongPanelSize(size, judges.length);
        uint96 court = _drawCourt();
        for (uint256 i = 0; i < judges.length; i++) {
            address j = judges[i];
            if (!c.registry.isEligibleJudgeIn(j, court)) revert JudgeNotEligible(j);
            if (j == c.plaintiff || j == c.defendant) revert JudgeIsParty(j);
            if (c.round == 2 && c.servedInRound(1, j)) revert JudgeAlreadyServed(j);
            for (uint256 k = 0; k < i; k++) {
                if (judges[k] == j) revert DuplicateJudge(j);
            }
        }
        _seat(judges);
    }

    /// @notice Executes the armed draw: judges drawn with a chance proportional to stake from the
    /// pool as it was when the draw was armed, never a party, never twice, never a judge of the
    /// first round on appeal. Nothing the caller sends changes the panel. If the entropy expired
    /// (a block hash is readable for 256 blocks), the draw is armed afresh instead.
    function drawJudges() external {
        if (msg.sender != c.factory) revert OnlyFactory();
        _requireAwaitingPanel();
        (bytes32 value, IDrawEntropy.Status status) = entropy.entropyOf(drawTicket);
        if (status == IDrawEntropy.Status.Pending) revert DrawNotReady(drawTicket);
        if (status == IDrawEntropy.Status.Expired) {
            _armDraw();
            c.touched();
            return;
        }
        uint8 r = c.round;
        address[] storage first = c.panel[1];
        uint256 nFirst = r == 2 ? first.length : 0;
        address[] memory excluded = new address[](2 + nFirst);
        excluded[0] = c.plaintiff;
        excluded[1] = c.defendant;
        for (uint256 i = 0; i < nFirst; i++) {
            excluded[2 + i] = first[i];
        }
        bytes32 seed = keccak256(abi.encode(value, address(this), r));
        _seat(c.registry.drawPanel(_drawCourt(), seed, c.drawPoolBlock, c.panelSize(), excluded));
    }

    // ------------------------------------------------------------------ voting (CaseVoting)

    /// @notice An assigned judge votes once; a majority of the panel decides. Public votes only.
    /// @param plaintiffWins The vote: true for the plaintiff.
    function vote(bool plaintiffWins) external nonReentrant inState(CaseState.Deliberating) {
        CaseVoting.vote(c, plaintiffWins);
    }

    /// @notice Hidden votes, phase 1: an assigned judge commits
    /// keccak256(abi.encode(case, judge, round, plaintiffWins, salt)) before the commit deadline.
    /// @param commitment The hash.
    function commitVote(bytes32 commitment) external inState(CaseState.Deliberating) {
        CaseVoting.commitVote(c, commitment);
    }

    /// @notice Hidden votes, phase 2: once every judge committed or the commit deadline passed, and
    /// before the reveal deadline, a judge reveals its vote and salt, with optional reasons.
    /// @param plaintiffWins The vote committed.
    /// @param salt The salt committed.
    /// @param justification Reasons, at most MAX_JUSTIFICATION_LENGTH bytes (may be empty).
    function revealVote(bool plaintiffWins, bytes32 salt, string calldata justification)
        external
        nonReentrant
        inState(CaseState.Deliberating)
    {
        CaseVoting.revealVote(c, plaintiffWins, salt, justification);
    }

    /// @notice When no verdict came by the deliberation deadline, anyone may end the case. With
    /// hidden votes, if a majority of the panel revealed the same vote, that is the verdict.
    /// Otherwise, in the first round the case is dismissed (stakes refunded, judges who never voted
    /// slashed); on appeal the first-round verdict stands and is paid out, the appeal bond with it
    /// (judges of the appeal who never voted are slashed): an appeal that cannot be heard never
    /// helps the appellant.
    function resolveAfterDeadline() external nonReentrant {
        CaseVoting.resolveAfterDeadline(c);
    }

    // ------------------------------------------------------------------- views

    /// @notice The whole case in one call.
    /// @return v The case, its court (`courtId`) and the court that seats its appeal (`appealCourtId`) included.
    function getCase() external view returns (CaseView memory v) {
        uint8 r = c.round;
        v.addr = address(this);
        v.state = c.state;
        v.plaintiff = c.plaintiff;
        v.defendant = c.defendant;
        v.claimDescription = claimDescription;
        v.plaintiffStake = c.plaintiffStake;
        v.defendantStake = c.defendantStake;
        v.evidenceIpfsHash = evidenceIpfsHash;
        v.judges = c.panel[r];
        (v.votesForPlaintiff, v.votesForDefendant) = _currentTally();
        v.filedAt = c.filedAt;
        v.resolvedAt = c.resolvedAt;
        v.outcome = c.outcome;
        v.verdictReason = verdictReason();
        v.appealWindowOpen = appealWindowOpen();
        v.appealUsed = c.appealUsed;
        v.responseDeadline = c.responseDeadline;
        v.deliberationDeadline = c.deliberationDeadline;
        v.appealDeadline = c.appealDeadline;
        v.round = r;
        v.settled = c.settled;
        v.appellant = c.appealUsed ? c.firstRoundLoser : address(0);
        v.appealBond = c.terms.appealBond;
        v.evidenceCount = evidence.length;
        v.chainTime = uint64(block.timestamp);
        v.hiddenVotes = c.terms.hiddenVotes;
        v.votesCommitted = c.commitCount[r];
        v.commitDeadline = c.commitDeadline;
        v.revealDeadline = c.revealDeadline();
        v.drawTicket = drawTicket;
        v.drawPoolBlock = c.drawPoolBlock;
        v.courtId = courtId;
        v.appealCourtId = appealCourtId;
        address[] storage seated = c.panel[r];
        v.votes = new VoteView[](seated.length);
        for (uint256 i = 0; i < seated.length; i++) {
            address j = seated[i];
            v.votes[i] = VoteView(j, _voteCode(r, j), c.justifications[r][j]);
        }
    }

    /// @notice The case without its free text, for lists.
    /// @return s The summary, with the court the case was filed in.
    function getSummary() external view returns (CaseSummary memory s) {
        s.addr = address(this);
        s.state = c.state;
        s.plaintiff = c.plaintiff;
        s.defendant = c.defendant;
        s.judges = c.panel[c.round];
        (s.votesForPlaintiff, s.votesForDefendant) = _currentTally();
        s.filedAt = c.filedAt;
        s.responseDeadline = c.responseDeadline;
        s.deliberationDeadline = c.deliberationDeadline;
        s.round = c.round;
        s.courtId = courtId;
    }

    /// @notice Who may act on the case now, without its free text: what an inbox or a keeper pages
    /// through. `mayAppeal` and `drawStatus` say what `getCase` leaves to the reader to work out.
    /// @return s The status; `courtId` is the court whose pool seats the current round.
    function getStatus() external view returns (CaseStatus memory s) {
        CaseState st = c.state;
        uint8 r = c.round;
        s.addr = address(this);
        s.state = st;
        s.plaintiff = c.plaintiff;
        s.defendant = c.defendant;
        s.round = r;
        s.hiddenVotes = c.terms.hiddenVotes;
        s.settled = c.settled;
        s.appealUsed = c.appealUsed;
        if (st == CaseState.Resolved && r == 1 && !c.settled) s.mayAppeal = c.firstRoundLoser;
        s.responseDeadline = c.responseDeadline;
        s.deliberationDeadline = c.deliberationDeadline;
        s.commitDeadline = c.commitDeadline;
        s.revealDeadline = c.revealDeadline();
        s.appealDeadline = c.appealDeadline;
        s.drawPoolBlock = c.drawPoolBlock;
        s.drawStatus = NO_DRAW;
        // Active only in round 1, Appealed only in round 2: either way the armed draw is awaited.
        if (st == CaseState.Active || st == CaseState.Appealed) {
            (, IDrawEntropy.Status status) = entropy.entropyOf(drawTicket);
            s.drawStatus = uint8(status);
        }
        s.votesCommitted = c.commitCount[r];
        s.evidenceCount = evidence.length;
        (s.judges, s.votes) = getPanel(r);
        s.courtId = _drawCourt();
    }

    /// @notice Every evidence item the parties added, in order (the plaintiff's filing reference is
    /// `evidenceIpfsHash`).
    /// @return The items.
    function getEvidence() external view returns (Evidence[] memory) {
        return evidence;
    }

    /// @notice The panel of a round, with each judge's vote code (0 none, 1 for the plaintiff, 2 for
    /// the defendant, 3 committed and not revealed yet).
    /// @param r The round (1, or 2 after an appeal).
    /// @return judges The panel.
    /// @return cast Each judge's vote code.
    function getPanel(uint8 r) public view returns (address[] memory judges, uint8[] memory cast) {
        judges = c.panel[r];
        cast = new uint8[](judges.length);
        for (uint256 i = 0; i < judges.length; i++) {
            cast[i] = _voteCode(r, judges[i]);
        }
    }

    /// @notice Whether `who` sits on the current round's panel.
    /// @param who The address.
    /// @return Whether it is a judge of the current round.
    function isJudge(address who) external view returns (bool) {
        return c.servedInRound(c.round, who);
    }

    /// @notice Whether the first round's loser may appeal now.
    /// @return Whether the appeal window is open.
    function appealWindowOpen() public view returns (bool) {
        return c.state == CaseState.Resolved && !c.appealUsed && !c.settled && block.timestamp <= c.appealDeadline;
    }

    /// @notice Why the case's current outcome was reached, in words (empty before any outcome).
    /// @return The reason.
    function verdictReason() public view returns (string memory) {
        uint8 reasonCode = c.reasonCode;
        if (reasonCode == 1) return c.outcome == Outcome.PlaintiffWon
            ? "A majority of the panel found for the plaintiff"
            : "A majority of the panel found for the defendant";
        if (reasonCode == 2) return c.outcome == Outcome.PlaintiffWon
            ? "On appeal, a majority of the panel found for the plaintiff"
            : "On appeal, a majority of the panel found for the defendant";
        if (reasonCode == 3) return "The defendant did not respond before the response deadline";
        if (reasonCode == 4) return "No verdict before the deliberation deadline; stakes refunded";
        if (reasonCode == 5) return "No verdict on appeal before the deadline; the first verdict stands";
        return "";
    }

    // ------------------------------------------------------- shared state's getters

    /// @notice The factory that filed the case.
    /// @return The factory.
    function factory() external view returns (address) {
        return c.factory;
    }

    /// @notice The court registry (judge pools and records).
    /// @return The registry.
    function registry() external view returns (ICourtRegistry) {
        return c.registry;
    }

    /// @notice The court's terms, copied at filing and fixed for the case's life.
    /// @return responseWindow Seconds the defendant has to respond.
    /// @return deliberationPeriod Seconds to seat a panel, and for a public-vote panel to decide.
    /// @return appealWindow Seconds the loser has to appeal.
    /// @return courtFeeBps The court fee on the stakes and bond, in basis points.
    /// @return judgeRewardBps The judges' share of the court fee, in basis points.
    /// @return minPartyStake The defendant's minimum stake.
    /// @return appealBond The appeal bond.
    /// @return hiddenVotes Whether judges commit and then reveal.
    /// @return commitPeriod Seconds of the commit phase (hidden votes).
    /// @return revealPeriod Seconds of the reveal phase (hidden votes).
    /// @return panelSize Judges of the first round.
    /// @return appealPanelSize Judges of the appeal.
    function terms()
        external
        view
        returns (
            uint64 responseWindow,
            uint64 deliberationPeriod,
            uint64 appealWindow,
            uint16 courtFeeBps,
            uint16 judgeRewardBps,
            uint256 minPartyStake,
            uint256 appealBond,
            bool hiddenVotes,
            uint64 commitPeriod,
            uint64 revealPeriod,
            uint16 panelSize,
            uint16 appealPanelSize
        )
    {
        CaseTerms storage t = c.terms;
        return (
            t.responseWindow,
            t.deliberationPeriod,
            t.appealWindow,
            t.courtFeeBps,
            t.judgeRewardBps,
            t.minPartyStake,
            t.appealBond,
            t.hiddenVotes,
            t.commitPeriod,
            t.revealPeriod,
            t.panelSize,
            t.appealPanelSize
        );
    }

    /// @notice The case's state.
    /// @return The state.
    function state() external view returns (CaseState) {
        return c.state;
    }

    /// @notice The current outcome (None while undecided).
    /// @return The outcome.
    function outcome() external view returns (Outcome) {
        return c.outcome;
    }

    /// @notice The plaintiff.
    /// @return The plaintiff.
    function plaintiff() external view returns (address) {
        return c.plaintiff;
    }

    /// @notice The defendant.
    /// @return The defendant.
    function defendant() external view returns (address) {
        return c.defendant;
    }

    /// @notice The plaintiff's stake.
    /// @return The stake.
    function plaintiffStake() external view returns (uint256) {
        return c.plaintiffStake;
    }

    /// @notice The defendant's stake (0 before it responds).
    /// @return The stake.
    function defendantStake() external view returns (uint256) {
        return c.defendantStake;
    }

    /// @notice A case filed through the arbitrator: what the arbitrable paid beyond the filing fee.
    /// No party's money: it all goes to the judges (judgeRewardBps of it, to those voting with the
    /// final outcome) and the court treasury (the rest; all of it when no verdict is given).
    /// @return The arbitration fee.
    function arbitrationFee() external view returns (uint256) {
        return c.arbitrationFee;
    }

    /// @notice When the current outcome was reached (0 while undecided).
    /// @return The time.
    function resolvedAt() external view returns (uint64) {
        return c.resolvedAt;
    }

    /// @notice The current round's deadline: to seat a panel, then to decide (the reveal deadline
    /// with hidden votes).
    /// @return The deadline.
    function deliberationDeadline() external view returns (uint64) {
        return c.deliberationDeadline;
    }

    /// @notice The first round's loser may appeal until then.
    /// @return The deadline.
    function appealDeadline() external view returns (uint64) {
        return c.appealDeadline;
    }

    /// @notice The round: 1, or 2 after an appeal.
    /// @return The round.
    function round() external view returns (uint8) {
        return c.round;
    }

    /// @notice Whether the case has paid out (it is over).
    /// @return Whether it is settled.
    function settled() external view returns (bool) {
        return c.settled;
    }

    /// @notice Who appealed (zero if nobody): the first round's loser, who alone may.
    /// @return The appellant.
    function appellant() external view returns (address) {
        return c.appealUsed ? c.firstRoundLoser : address(0);
    }

    /// @notice Whether the case was appealed.
    /// @return Whether the appeal was used.
    function appealUsed() external view returns (bool) {
        return c.appealUsed;
    }

    /// @notice When the case was filed.
    /// @return The time.
    function filedAt() external view returns (uint64) {
        return c.filedAt;
    }

    /// @notice The defendant must respond by then.
    /// @return The deadline.
    function responseDeadline() external view returns (uint64) {
        return c.responseDeadline;
    }

    /// @notice The block whose end state of the judge pool the armed draw reads (so stake changes
    /// after it cannot steer the draw).
    /// @return The block.
    function drawPoolBlock() external view returns (uint64) {
        return c.drawPoolBlock;
    }

    /// @notice The appeal bond posted (0 if no appeal).
    /// @return The bond.
    function appealBondPaid() external view returns (uint256) {
        return c.appealBondPaid;
    }

    /// @notice Hidden votes: the current round's commit deadline.
    /// @return The deadline.
    function commitDeadline() external view returns (uint64) {
        return c.commitDeadline;
    }

    /// @notice Hidden votes: the current round's reveal deadline.
    /// @return The deadline.
    function revealDeadline() external view returns (uint64) {
        return c.revealDeadline();
    }

    /// @notice A payout its recipient refused, kept for it to `withdraw`.
    /// @param account The recipient.
    /// @return The amount owed.
    function owed(address account) external view returns (uint256) {
        return c.owed[account];
    }

    // ---------------------------------------------------------------- internal

    function _armDraw() private {
        uint256 ticket = entropy.arm();
        uint64 poolBlock = uint64(block.number);
        drawTicket = ticket;
        c.drawPoolBlock = poolBlock;
        c.registry.drawArmed(_drawCourt());
        emit DrawArmed(c.round, ticket, poolBlock);
    }

    function _voteCode(uint8 r, address j) private view returns (uint8) {
        uint8 cast = c.votes[r][j];
        return cast == CaseRules.NO_VOTE && c.commitments[r][j] != bytes32(0) ? COMMITTED : cast;
    }

    /// @dev The court whose pool seats the current round.
    function _drawCourt() private view returns (uint96) {
        return c.round == 1 ? courtId : appealCourtId;
    }

    function _requireAwaitingPanel() private view {
        CaseState expected = c.round == 1 ? CaseState.Active : CaseState.Appealed;
        if (c.state != expected) revert WrongState(c.state);
        if (block.timestamp > c.deliberationDeadline) revert DeliberationClosed(c.deliberationDeadline);
    }

    function _seat(address[] memory judges) private {
        uint8 r = c.round;
        address[] storage seated = c.panel[r];
        for (uint256 i = 0; i < judges.length; i++) {
            seated.push(judges[i]);
            c.registry.judgeAssigned(judges[i]);
        }
        c.registry.drawSettled();
        if (c.terms.hiddenVotes) {
            uint64 commitBy = uint64(block.timestamp) + c.terms.commitPeriod;
            c.commitDeadline = commitBy;
            c.deliberationDeadline = commitBy + c.terms.revealPeriod;
        } else {
            c.deliberationDeadline = uint64(block.timestamp) + c.terms.deliberationPeriod;
        }
        emit JudgesAssigned(r, judges);
        c.moveTo(CaseState.Deliberating);
    }

    function _currentTally() private view returns (uint256, uint256) {
        uint256[2] storage t = c.tally[c.round];
        return (t[0], t[1]);
    }
}
