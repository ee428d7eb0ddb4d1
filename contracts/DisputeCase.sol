// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {
    CaseState,
    Outcome,
    JudgeResult,
    CaseTerms,
    CaseView,
    CaseSummary,
    CaseStatus,
    VoteView,
    ICourtRegistry,
    ICaseFactory,
    IDrawEntropy
} from "./ICourt.sol";

/// @title One dispute between a plaintiff and a defendant.
/// @notice Deployed by the CaseFactory as a minimal clone, so each case has its own address.
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
    /// @notice Evidence items each party may add in each round (two parties, two rounds: 64 in all),
    /// so one party can never fill the slots the other needs.
    uint256 public constant MAX_EVIDENCE_PER_PARTY_ROUND = 16;
    uint256 public constant MAX_HASH_LENGTH = 128;
    uint256 public constant MAX_JUSTIFICATION_LENGTH = 512;

    error AlreadyInitialized();
    error OnlyFactory();
    error OnlyDefendant();
    error OnlyParty();
    error OnlyLosingParty();
    error NotAssignedJudge(address caller);
    error AlreadyVoted(address judge);
    error WrongState(CaseState current);
    error ResponseWindowClosed(uint64 deadline);
    error ResponseWindowStillOpen(uint64 deadline);
    error DeliberationClosed(uint64 deadline);
    error DeadlineNotReached(uint64 deadline);
    error AppealWindowClosed(uint64 deadline);
    error AppealWindowStillOpen(uint64 deadline);
    error AppealAlreadyUsed();
    error WrongAppealBond(uint256 required, uint256 sent);
    error StakeBelowMinimum(uint256 minimum, uint256 sent);
    error EvidenceHashInvalid();
    error TooMuchEvidence(uint256 max);
    error WrongPanelSize(uint256 required, uint256 given);
    error JudgeNotEligible(address judge);
    error JudgeIsParty(address judge);
    error JudgeAlreadyServed(address judge);
    error DuplicateJudge(address judge);
    error NotEnoughJudges(uint256 available, uint256 required);
    error NothingToWithdraw();
    error Reentrancy();
    error DrawNotReady(uint256 ticket);
    error VotesAreHidden();
    error VotesArePublic();
    error AlreadyCommitted(address judge);
    error NotCommitted(address caller);
    error InvalidCommitment();
    error CommitPhaseClosed(uint64 deadline);
    error RevealPhaseNotOpen(uint64 commitDeadline);
    error CommitmentMismatch();
    error JustificationTooLong(uint256 max);

    event Responded(address indexed defendant, uint256 stake);
    event EvidenceSubmitted(address indexed submitter, string evidenceIpfsHash);
    event JudgesAssigned(uint8 round, address[] judges);
    event VoteCast(address indexed judge, bool plaintiffWins, uint8 round);
    event DrawArmed(uint8 round, uint256 ticket, uint64 poolBlock);
    event VoteCommitted(address indexed judge, uint8 round);
    event VoteRevealed(address indexed judge, bool plaintiffWins, uint8 round, string justification);
    event Verdict(Outcome outcome, uint8 round);
    event Appealed(address indexed appellant, uint256 bond);
    event Settled(address indexed winner, uint256 payout, uint256 courtFee, uint256 judgeRewards);
    event Defaulted(address indexed plaintiff);
    event Dismissed();
    event PaymentDeferred(address indexed to, uint256 amount);
    event Withdrawn(address indexed to, uint256 amount);

    struct Evidence {
        address submitter;
        uint64 submittedAt;
        string hash;
    }

    // Vote codes in `votes`.
    uint8 private constant NO_VOTE = 0;
    uint8 private constant FOR_PLAINTIFF = 1;
    uint8 private constant FOR_DEFENDANT = 2;
    /// @dev Only in views: committed, not revealed yet.
    uint8 private constant COMMITTED = 3;
    /// @dev `getStatus().drawStatus` when no draw is awaited.
    uint8 private constant NO_DRAW = 255;

    bool private initialized;
    bool private locked;
    address public factory;
    ICourtRegistry public registry;
    IDrawEntropy public entropy;
    CaseTerms public terms;
    /// @notice The court the case was filed in, and the court whose pool seats its appeal.
    uint96 public courtId;
    uint96 public appealCourtId;

    CaseState public state;
    Outcome public outcome;
    address public plaintiff;
    address public defendant;
    string public claimDescription;
    string public evidenceIpfsHash;
    uint256 public plaintiffStake;
    uint256 public defendantStake;
    /// @notice A case filed through the arbitrator: what the arbitrable paid beyond the filing fee.
    /// No party's money: it all goes to the judges (judgeRewardBps of it, to those voting with the
    /// final outcome) and the court treasury (the rest; all of it when no verdict is given).
    uint256 public arbitrationFee;
    uint64 public filedAt;
    uint64 public resolvedAt;
    uint64 public responseDeadline;
    uint64 public deliberationDeadline;
    uint64 public appealDeadline;
    uint8 public round;
    bool public appealUsed;
    bool public settled;
    address public appellant;
    uint256 public appealBondPaid;
    /// @dev Why the current outcome was reached; see `verdictReason()`.
    uint8 private reasonCode;
    /// @dev The round-1 loser, who alone may appeal.
    address private firstRoundLoser;
    /// @dev The armed draw: the entropy source's ticket, and the block whose end state of the
    /// judge pool the draw reads (so stake changes after it cannot steer the draw).
    uint256 public drawTicket;
    uint64 public drawPoolBlock;
    /// @dev Hidden votes: the current round's phases (deliberationDeadline = revealDeadline).
    uint64 public commitDeadline;
    uint64 public revealDeadline;

    mapping(uint8 => address[]) private panel;
    mapping(uint8 => mapping(address => uint8)) private votes;
    mapping(uint8 => uint256[2]) private tally;
    mapping(uint8 => mapping(address => bytes32)) private commitments;
    mapping(uint8 => uint256) private commitCount;
    mapping(uint8 => mapping(address => string)) private justifications;
    Evidence[] private evidence;
    /// @dev Evidence items added, by round and party.
    mapping(uint8 => mapping(address => uint256)) private evidenceAdded;
    mapping(address => uint256) public owed;

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

    modifier inState(CaseState s) {
        if (state != s) revert WrongState(state);
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
        factory = msg.sender;
        registry = ICourtRegistry(registry_);
        entropy = IDrawEntropy(entropy_);
        terms = terms_;
        courtId = courtId_;
        appealCourtId = appealCourtId_;
        plaintiff = plaintiff_;
        defendant = defendant_;
        claimDescription = claimDescription_;
        evidenceIpfsHash = evidenceIpfsHash_;
        plaintiffStake = msg.value - arbitrationFee_;
        arbitrationFee = arbitrationFee_;
        filedAt = uint64(block.timestamp);
        responseDeadline = uint64(block.timestamp) + terms_.responseWindow;
        round = 1;
        // Filed is only the state before initialisation; a filed case is summoned at once.
        state = CaseState.Summoned;
    }

    // ----------------------------------------------------------------- parties

    /// @notice The defendant answers the summons with a stake, before the response deadline.
    function respond() external payable nonReentrant inState(CaseState.Summoned) {
        if (msg.sender != defendant) revert OnlyDefendant();
        if (block.timestamp > responseDeadline) revert ResponseWindowClosed(responseDeadline);
        if (msg.value < terms.minPartyStake) revert StakeBelowMinimum(terms.minPartyStake, msg.value);
        defendantStake = msg.value;
        _armDraw();
        // Judges must be drawn and must vote within one deliberation period from here.
        deliberationDeadline = uint64(block.timestamp) + terms.deliberationPeriod;
        emit Responded(msg.sender, msg.value);
        _moveTo(CaseState.Active);
    }

    /// @notice Either party adds a content hash while the case is being heard, at most
    /// MAX_EVIDENCE_PER_PARTY_ROUND per party in each round.
    /// @param hash The evidence's content reference (an IPFS CID), 1 to MAX_HASH_LENGTH bytes.
    function submitEvidence(string calldata hash) external {
        if (msg.sender != plaintiff && msg.sender != defendant) revert OnlyParty();
        if (state != CaseState.Active && state != CaseState.Deliberating) revert WrongState(state);
        uint256 len = bytes(hash).length;
        if (len == 0 || len > MAX_HASH_LENGTH) revert EvidenceHashInvalid();
        uint256 added = evidenceAdded[round][msg.sender];
        if (added >= MAX_EVIDENCE_PER_PARTY_ROUND) revert TooMuchEvidence(MAX_EVIDENCE_PER_PARTY_ROUND);
        evidenceAdded[round][msg.sender] = added + 1;
        evidence.push(Evidence(msg.sender, uint64(block.timestamp), hash));
        emit EvidenceSubmitted(msg.sender, hash);
        ICaseFactory(factory).onCaseChanged(state, state);
    }

    /// @notice After the response deadline passes unanswered, anyone may end the case for the plaintiff.
    function triggerDefault() external nonReentrant inState(CaseState.Summoned) {
        if (block.timestamp <= responseDeadline) revert ResponseWindowStillOpen(responseDeadline);
        outcome = Outcome.PlaintiffWon;
        resolvedAt = uint64(block.timestamp);
        reasonCode = 3;
        settled = true;
        registry.recordParties(plaintiff, defendant, true);
        emit Defaulted(plaintiff);
        _moveTo(CaseState.Defaulted);
        // No court fee on a default: the plaintiff gets the whole stake back.
        _feeToCourt();
        _pay(plaintiff, plaintiffStake);
    }

    /// @notice The losing party appeals once, within the appeal window, posting the appeal bond.
    function appeal() external payable nonReentrant inState(CaseState.Resolved) {
        if (appealUsed) revert AppealAlreadyUsed();
        if (msg.sender != firstRoundLoser) revert OnlyLosingParty();
        if (block.timestamp > appealDeadline) revert AppealWindowClosed(appealDeadline);
        if (msg.value != terms.appealBond) revert WrongAppealBond(terms.appealBond, msg.value);
        appealUsed = true;
        appellant = msg.sender;
        appealBondPaid = msg.value;
        round = 2;
        outcome = Outcome.None;
        resolvedAt = 0;
        reasonCode = 0;
        deliberationDeadline = uint64(block.timestamp) + terms.deliberationPeriod;
        _armDraw();
        emit Appealed(msg.sender, msg.value);
        _moveTo(CaseState.Appealed);
    }

    /// @notice After the appeal window closes unused, anyone may pay out the verdict.
    function settle() external nonReentrant inState(CaseState.Resolved) {
        if (settled) revert WrongState(state);
        if (block.timestamp <= appealDeadline) revert AppealWindowStillOpen(appealDeadline);
        (address winner, uint256 payout) = _settleBooks(false);
        ICaseFactory(factory).onCaseChanged(state, state);
        _pay(winner, payout);
    }

    /// @notice Collects a payout that could not be pushed when the case ended.
    function withdraw() external nonReentrant {
        uint256 amount = owed[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        owed[msg.sender] = 0;
        emit Withdrawn(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        require(ok, "DisputeCase: withdrawal transfer failed");
    }

    // ------------------------------------------------------------------ judges

    /// @notice Seats a panel chosen by the factory owner (manual override).
    function setJudges(address[] calldata judges) external {
        if (msg.sender != factory) revert OnlyFactory();
        _requireAwaitingPanel();
        uint256 size = _panelSize();
        if (judges.length != size) revert WrongPanelSize(size, judges.length);
        for (uint256 i = 0; i < judges.length; i++) {
            address j = judges[i];
            if (!registry.isEligibleJudgeIn(j, _drawCourt())) revert JudgeNotEligible(j);
            if (j == plaintiff || j == defendant) revert JudgeIsParty(j);
            if (round == 2 && _servedInRound(1, j)) revert JudgeAlreadyServed(j);
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
        if (msg.sender != factory) revert OnlyFactory();
        _requireAwaitingPanel();
        (bytes32 value, IDrawEntropy.Status status) = entropy.entropyOf(drawTicket);
        if (status == IDrawEntropy.Status.Pending) revert DrawNotReady(drawTicket);
        if (status == IDrawEntropy.Status.Expired) {
            _armDraw();
            ICaseFactory(factory).onCaseChanged(state, state);
            return;
        }
        address[] storage first = panel[1];
        uint256 nFirst = round == 2 ? first.length : 0;
        address[] memory excluded = new address[](2 + nFirst);
        excluded[0] = plaintiff;
        excluded[1] = defendant;
        for (uint256 i = 0; i < nFirst; i++) {
            excluded[2 + i] = first[i];
        }
        bytes32 seed = keccak256(abi.encode(value, address(this), round));
        _seat(registry.drawPanel(_drawCourt(), seed, drawPoolBlock, _panelSize(), excluded));
    }

    /// @notice An assigned judge votes once; a majority of the panel decides. Public votes only.
    function vote(bool plaintiffWins) external nonReentrant inState(CaseState.Deliberating) {
        if (terms.hiddenVotes) revert VotesAreHidden();
        if (!_servedInRound(round, msg.sender)) revert NotAssignedJudge(msg.sender);
        if (votes[round][msg.sender] != NO_VOTE) revert AlreadyVoted(msg.sender);
        if (block.timestamp > deliberationDeadline) revert DeliberationClosed(deliberationDeadline);
        emit VoteCast(msg.sender, plaintiffWins, round);
        _count(plaintiffWins);
    }

    /// @notice Hidden votes, phase 1: an assigned judge commits
    /// keccak256(abi.encode(case, judge, round, plaintiffWins, salt)) before the commit deadline.
    function commitVote(bytes32 commitment) external inState(CaseState.Deliberating) {
        if (!terms.hiddenVotes) revert VotesArePublic();
        if (!_servedInRound(round, msg.sender)) revert NotAssignedJudge(msg.sender);
        if (commitments[round][msg.sender] != bytes32(0)) revert AlreadyCommitted(msg.sender);
        if (commitment == bytes32(0)) revert InvalidCommitment();
        if (block.timestamp > commitDeadline) revert CommitPhaseClosed(commitDeadline);
        commitments[round][msg.sender] = commitment;
        commitCount[round] += 1;
        emit VoteCommitted(msg.sender, round);
        ICaseFactory(factory).onCaseChanged(state, state);
    }

    /// @notice Hidden votes, phase 2: once every judge committed or the commit deadline passed, and
    /// before the reveal deadline, a judge reveals its vote and salt, with optional reasons.
    function revealVote(bool plaintiffWins, bytes32 salt, string calldata justification)
        external
        nonReentrant
        inState(CaseState.Deliberating)
    {
        if (!terms.hiddenVotes) revert VotesArePublic();
        bytes32 c = commitments[round][msg.sender];
        if (c == bytes32(0)) revert NotCommitted(msg.sender);
        if (votes[round][msg.sender] != NO_VOTE) revert AlreadyVoted(msg.sender);
        if (block.timestamp <= commitDeadline && commitCount[round] < _panelSize()) {
            revert RevealPhaseNotOpen(commitDeadline);
        }
        if (block.timestamp > revealDeadline) revert DeliberationClosed(revealDeadline);
        if (bytes(justification).length > MAX_JUSTIFICATION_LENGTH) {
            revert JustificationTooLong(MAX_JUSTIFICATION_LENGTH);
        }
        if (keccak256(abi.encode(address(this), msg.sender, round, plaintiffWins, salt)) != c) {
            revert CommitmentMismatch();
        }
        if (bytes(justification).length > 0) justifications[round][msg.sender] = justification;
        emit VoteRevealed(msg.sender, plaintiffWins, round, justification);
        _count(plaintiffWins);
    }

    /// @notice When no verdict came by the deliberation deadline, anyone may end the case. With
    /// hidden votes, if a majority of the panel revealed the same vote, that is the verdict.
    /// Otherwise, in the first round the case is dismissed (stakes refunded, judges who never voted
    /// slashed); on appeal the first-round verdict stands and is paid out, the appeal bond with it
    /// (judges of the appeal who never voted are slashed): an appeal that cannot be heard never
    /// helps the appellant.
    function resolveAfterDeadline() external nonReentrant {
        if (state != CaseState.Active && state != CaseState.Deliberating && state != CaseState.Appealed) {
            revert WrongState(state);
        }
        if (block.timestamp <= deliberationDeadline) revert DeadlineNotReached(deliberationDeadline);
        // Hidden votes are counted when the reveal phase ends: a majority of the panel among the
        // revealed votes decides, and whoever did not reveal is a no-show.
        if (state == CaseState.Deliberating && terms.hiddenVotes) {
            uint256[2] storage t = tally[round];
            uint256 size = _panelSize();
            if (t[0] * 2 > size || t[1] * 2 > size) {
                _verdict(t[0] * 2 > size);
                return;
            }
        }
        if (round == 2) {
            // The appeal lapsed: the first round's verdict is final.
            outcome = firstRoundLoser == defendant ? Outcome.PlaintiffWon : Outcome.DefendantWon;
            resolvedAt = uint64(block.timestamp);
            reasonCode = 5;
            emit Verdict(outcome, round);
            (address winner, uint256 payout) = _settleBooks(true);
            _moveTo(CaseState.Resolved);
            _pay(winner, payout);
            return;
        }
        // No final outcome to agree with: voters are released unscored, the current panel's
        // judges who never (revealed a) vote are no-shows.
        _releaseJudges(NO_VOTE, true);
        outcome = Outcome.Dismissed;
        resolvedAt = uint64(block.timestamp);
        reasonCode = 4;
        settled = true;
        registry.recordDismissal(plaintiff, defendant);
        emit Dismissed();
        _moveTo(CaseState.Dismissed);
        _feeToCourt();
        _pay(plaintiff, plaintiffStake);
        if (defendantStake > 0) _pay(defendant, defendantStake);
        if (appealBondPaid > 0) _pay(appellant, appealBondPaid);
    }

    // ------------------------------------------------------------------- views

    /// @notice The whole case in one call.
    /// @return v The case, its court (`courtId`) and the court that seats its appeal (`appealCourtId`) included.
    function getCase() external view returns (CaseView memory v) {
        v.addr = address(this);
        v.state = state;
        v.plaintiff = plaintiff;
        v.defendant = defendant;
        v.claimDescription = claimDescription;
        v.plaintiffStake = plaintiffStake;
        v.defendantStake = defendantStake;
        v.evidenceIpfsHash = evidenceIpfsHash;
        v.judges = _currentPanel();
        (v.votesForPlaintiff, v.votesForDefendant) = _currentTally();
        v.filedAt = filedAt;
        v.resolvedAt = resolvedAt;
        v.outcome = outcome;
        v.verdictReason = verdictReason();
        v.appealWindowOpen = appealWindowOpen();
        v.appealUsed = appealUsed;
        v.responseDeadline = responseDeadline;
        v.deliberationDeadline = deliberationDeadline;
        v.appealDeadline = appealDeadline;
        v.round = round;
        v.settled = settled;
        v.appellant = appellant;
        v.appealBond = terms.appealBond;
        v.evidenceCount = evidence.length;
        v.chainTime = uint64(block.timestamp);
        v.hiddenVotes = terms.hiddenVotes;
        v.votesCommitted = commitCount[round];
        v.commitDeadline = commitDeadline;
        v.revealDeadline = revealDeadline;
        v.drawTicket = drawTicket;
        v.drawPoolBlock = drawPoolBlock;
        v.courtId = courtId;
        v.appealCourtId = appealCourtId;
        address[] storage seated = panel[round];
        v.votes = new VoteView[](seated.length);
        for (uint256 i = 0; i < seated.length; i++) {
            address j = seated[i];
            v.votes[i] = VoteView(j, _voteCode(round, j), justifications[round][j]);
        }
    }

    /// @notice The case without its free text, for lists.
    /// @return s The summary, with the court the case was filed in.
    function getSummary() external view returns (CaseSummary memory s) {
        s.addr = address(this);
        s.state = state;
        s.plaintiff = plaintiff;
        s.defendant = defendant;
        s.judges = _currentPanel();
        (s.votesForPlaintiff, s.votesForDefendant) = _currentTally();
        s.filedAt = filedAt;
        s.responseDeadline = responseDeadline;
        s.deliberationDeadline = deliberationDeadline;
        s.round = round;
        s.courtId = courtId;
    }

    /// @notice Who may act on the case now, without its free text: what an inbox or a keeper pages
    /// through. `mayAppeal` and `drawStatus` say what `getCase` leaves to the reader to work out.
    /// @return s The status; `courtId` is the court whose pool seats the current round.
    function getStatus() external view returns (CaseStatus memory s) {
        s.addr = address(this);
        s.state = state;
        s.plaintiff = plaintiff;
        s.defendant = defendant;
        s.round = round;
        s.hiddenVotes = terms.hiddenVotes;
        s.settled = settled;
        s.appealUsed = appealUsed;
        if (state == CaseState.Resolved && round == 1 && !settled) s.mayAppeal = firstRoundLoser;
        s.responseDeadline = responseDeadline;
        s.deliberationDeadline = deliberationDeadline;
        s.commitDeadline = commitDeadline;
        s.revealDeadline = revealDeadline;
        s.appealDeadline = appealDeadline;
        s.drawPoolBlock = drawPoolBlock;
        s.drawStatus = NO_DRAW;
        // Active only in round 1, Appealed only in round 2: either way the armed draw is awaited.
        if (state == CaseState.Active || state == CaseState.Appealed) {
            (, IDrawEntropy.Status status) = entropy.entropyOf(drawTicket);
            s.drawStatus = uint8(status);
        }
        s.votesCommitted = commitCount[round];
        s.evidenceCount = evidence.length;
        (s.judges, s.votes) = getPanel(round);
        s.courtId = _drawCourt();
    }

    function getEvidence() external view returns (Evidence[] memory) {
        return evidence;
    }

    /// @notice The panel of a round (1, or 2 after an appeal).
    function getPanel(uint8 r) public view returns (address[] memory judges, uint8[] memory cast) {
        judges = panel[r];
        cast = new uint8[](judges.length);
        for (uint256 i = 0; i < judges.length; i++) {
            cast[i] = _voteCode(r, judges[i]);
        }
    }

    function isJudge(address who) external view returns (bool) {
        return _servedInRound(round, who);
    }

    function appealWindowOpen() public view returns (bool) {
        return state == CaseState.Resolved && !appealUsed && !settled && block.timestamp <= appealDeadline;
    }

    function verdictReason() public view returns (string memory) {
        if (reasonCode == 1) return outcome == Outcome.PlaintiffWon
            ? "A majority of the panel found for the plaintiff"
            : "A majority of the panel found for the defendant";
        if (reasonCode == 2) return outcome == Outcome.PlaintiffWon
            ? "On appeal, a majority of the panel found for the plaintiff"
            : "On appeal, a majority of the panel found for the defendant";
        if (reasonCode == 3) return "The defendant did not respond before the response deadline";
        if (reasonCode == 4) return "No verdict before the deliberation deadline; stakes refunded";
        if (reasonCode == 5) return "No verdict on appeal before the deadline; the first verdict stands";
        return "";
    }

    // ---------------------------------------------------------------- internal

    function _armDraw() private {
        drawTicket = entropy.arm();
        drawPoolBlock = uint64(block.number);
        registry.drawArmed(_drawCourt());
        emit DrawArmed(round, drawTicket, drawPoolBlock);
    }

    function _voteCode(uint8 r, address j) private view returns (uint8) {
        uint8 cast = votes[r][j];
        return cast == NO_VOTE && commitments[r][j] != bytes32(0) ? COMMITTED : cast;
    }

    /// @dev Counts the sender's vote for the current round; a majority decides the round.
    /// With hidden votes nothing is decided before every committed vote is revealed: a judge who
    /// sees the majority form cannot keep a minority vote unrevealed to dodge its score.
    function _count(bool plaintiffWins) private {
        votes[round][msg.sender] = plaintiffWins ? FOR_PLAINTIFF : FOR_DEFENDANT;
        uint256[2] storage t = tally[round];
        t[plaintiffWins ? 0 : 1] += 1;
        registry.judgeVoted(msg.sender);
        uint256 size = _panelSize();
        // The last reveal may be the minority's: the majority it completes is either side's.
        bool open = terms.hiddenVotes && t[0] + t[1] < commitCount[round];
        if (!open && t[0] * 2 > size) {
            _verdict(true);
        } else if (!open && t[1] * 2 > size) {
            _verdict(false);
        } else {
            ICaseFactory(factory).onCaseChanged(state, state);
        }
    }

    /// @dev Ends every judge's service on the case, scored against the final outcome (`winning`, a
    /// vote code; NO_VOTE when the case was dismissed). A voter agreeing with it is in the majority,
    /// one disagreeing in the minority, whatever the round. With hidden votes every judge who did
    /// not reveal is a no-show (nothing is decided before the reveals are in or the reveal phase is
    /// over); with public votes, on dismissal every current judge who did not vote is one, and a
    /// judge who had not voted when the majority formed is released unscored.
    function _releaseJudges(uint8 winning, bool currentNoShows) private {
        for (uint8 r = 1; r <= round; r++) {
            address[] storage seated = panel[r];
            for (uint256 i = 0; i < seated.length; i++) {
                address j = seated[i];
                uint8 cast = votes[r][j];
                JudgeResult result = JudgeResult.Unscored;
                if (cast != NO_VOTE) {
                    if (winning != NO_VOTE) result = cast == winning ? JudgeResult.Majority : JudgeResult.Minority;
                } else if (terms.hiddenVotes || (currentNoShows && r == round)) {
                    result = JudgeResult.NoShow;
                }
                registry.judgeReleased(j, result);
            }
        }
    }

    function _panelSize() private view returns (uint256) {
        return round == 1 ? terms.panelSize : terms.appealPanelSize;
    }

    /// @dev The court whose pool seats the current round.
    function _drawCourt() private view returns (uint96) {
        return round == 1 ? courtId : appealCourtId;
    }

    function _requireAwaitingPanel() private view {
        CaseState expected = round == 1 ? CaseState.Active : CaseState.Appealed;
        if (state != expected) revert WrongState(state);
        if (block.timestamp > deliberationDeadline) revert DeliberationClosed(deliberationDeadline);
    }

    function _seat(address[] memory judges) private {
        address[] storage seated = panel[round];
        for (uint256 i = 0; i < judges.length; i++) {
            seated.push(judges[i]);
            registry.judgeAssigned(judges[i]);
        }
        if (terms.hiddenVotes) {
            commitDeadline = uint64(block.timestamp) + terms.commitPeriod;
            revealDeadline = commitDeadline + terms.revealPeriod;
            deliberationDeadline = revealDeadline;
        } else {
            deliberationDeadline = uint64(block.timestamp) + terms.deliberationPeriod;
        }
        emit JudgesAssigned(round, judges);
        _moveTo(CaseState.Deliberating);
    }

    function _servedInRound(uint8 r, address who) private view returns (bool) {
        address[] storage seated = panel[r];
        for (uint256 i = 0; i < seated.length; i++) {
            if (seated[i] == who) return true;
        }
        return false;
    }

    function _currentPanel() private view returns (address[] memory) {
        return panel[round];
    }

    function _currentTally() private view returns (uint256, uint256) {
        uint256[2] storage t = tally[round];
        return (t[0], t[1]);
    }

    function _verdict(bool plaintiffWins) private {
        outcome = plaintiffWins ? Outcome.PlaintiffWon : Outcome.DefendantWon;
        resolvedAt = uint64(block.timestamp);
        reasonCode = round == 1 ? 1 : 2;
        // Judges stay bound to the case (and unscored) until the outcome is final: an appeal may
        // reverse it, and a judge proven right on appeal must not have been slashed for round 1.
        emit Verdict(outcome, round);
        if (round == 1) {
            firstRoundLoser = plaintiffWins ? defendant : plaintiff;
            appealDeadline = uint64(block.timestamp) + terms.appealWindow;
            _moveTo(CaseState.Resolved);
        } else {
            // The appeal verdict is final: settle the books, then pay out last.
            (address winner, uint256 payout) = _settleBooks(false);
            _moveTo(CaseState.Resolved);
            _pay(winner, payout);
        }
    }

    /// @dev Records the final outcome and sends the court fee to the registry; returns the
    /// winner's payout, which the caller pushes last (checks-effects-interactions).
    function _settleBooks(bool currentNoShows) private returns (address winner, uint256 payout) {
        settled = true;
        bool plaintiffWins = outcome == Outcome.PlaintiffWon;
        winner = plaintiffWins ? plaintiff : defendant;
        address loser = plaintiffWins ? defendant : plaintiff;
        uint256 pot = plaintiffStake + defendantStake + appealBondPaid;
        uint256 stakeFee = (pot * terms.courtFeeBps) / 10_000;
        uint256 fee = stakeFee + arbitrationFee;
        uint256 rewardPool = (fee * terms.judgeRewardBps) / 10_000;
        uint8 winning = plaintiffWins ? FOR_PLAINTIFF : FOR_DEFENDANT;

        // Judges of any round whose vote matches the final outcome share the reward pool.
        address[] memory rewarded = new address[](uint256(terms.panelSize) + terms.appealPanelSize);
        uint256 n = 0;
        for (uint8 r = 1; r <= round; r++) {
            address[] storage seated = panel[r];
            for (uint256 i = 0; i < seated.length; i++) {
                if (votes[r][seated[i]] == winning) rewarded[n++] = seated[i];
            }
        }
        assembly {
            mstore(rewarded, n)
        }
        uint256 each = n == 0 ? 0 : rewardPool / n;
        _releaseJudges(winning, currentNoShows);
        registry.recordParties(winner, loser, false);
        // The whole fee goes to the registry: `each` to every rewarded judge, the rest to the treasury.
        registry.creditRewards{value: fee}(rewarded, each);
        payout = pot - stakeFee;
        emit Settled(winner, payout, fee, each * n);
    }

    /// @dev No verdict (a default, a dismissal): no judge earned the arbitration fee; the court keeps it.
    function _feeToCourt() private {
        if (arbitrationFee > 0) registry.creditRewards{value: arbitrationFee}(new address[](0), 0);
    }

    function _moveTo(CaseState next) private {
        CaseState prev = state;
        state = next;
        ICaseFactory(factory).onCaseChanged(prev, next);
    }

    /// @dev Pushes a payout with bounded gas; a refusal is kept in `owed` for `withdraw()`.
    function _pay(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok,) = to.call{value: amount, gas: 50_000}("");
        if (!ok) {
            owed[to] += amount;
            emit PaymentDeferred(to, amount);
        }
    }
}
