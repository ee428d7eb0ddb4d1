// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {JudgeResult, ICourtRegistry, CaseTerms, CourtConfig, CourtView} from "./ICourt.sol";
import {ICaseOutcomeHook} from "./IERC8004.sol";
import {SortitionTree} from "./SortitionTree.sol";

/// @title Courts, agents, judges and their records.
/// @notice Courts form a tree under the General court (id 1, the root and the default); each has a
/// name, a policy document (a CID of its rules) and the terms its cases copy at filing. Only the
/// owner creates courts and changes them. Agents register themselves; judges stake the chain's
/// native coin into courts; a stake in a court also counts in every court above it (as in Kleros),
/// so a judge of a specialised court can be drawn in the General court too.
/// Only case contracts created by the factory may touch judge stakes and records.
/// Draws are stake-weighted per court: a judge's chance is its counted stake over the court's pool,
/// read from that court's checkpointed sum tree as of the block a case's draw was armed (see SortitionTree).
/// Money: the registry holds exactly the judges' stakes plus the treasury (court fees and slashes).
contract CourtRegistry is ICourtRegistry {
    using SortitionTree for SortitionTree.Tree;

    uint256 public constant MAX_NAME_LENGTH = 64;
    uint256 public constant MAX_URI_LENGTH = 512;

    error OnlyOwner();
    error OnlyFactory();
    error OnlyCase();
    error FactoryAlreadySet();
    error NameRequired();
    error NameTooLong(uint256 max);
    error UriTooLong(uint256 max);
    error StakeBelowMinimum(uint256 minimum, uint256 total);
    error NothingStaked();
    error JudgeServingOnOpenCase(uint256 openCases);
    error AmountExceedsTreasury(uint256 treasury);
    error InvalidParameter();
    error TransferFailed();
    error NotEnoughJudges(uint256 available, uint256 required);
    error NotEnoughGasForOutcomeHook(uint256 needed);
    error UnknownCourt(uint96 courtId);
    error CourtTreeFull();
    error PolicyInvalid(uint256 maxLength);
    error TooManyCourts(uint256 max);
    error NotStakedInCourt(uint96 courtId);

    event AgentRegistered(address indexed agent, uint256 indexed agentId, string name, string metadataURI);
    event AgentUpdated(address indexed agent, uint256 indexed agentId, string name, string metadataURI);
    /// @notice A judge added `amount` to its stake in `courtId`.
    /// @param judge The judge.
    /// @param courtId The court staked in (the stake also counts in every court above it).
    /// @param amount What this transaction added.
    /// @param courtStake The judge's stake in `courtId` after it.
    event JudgeStaked(address indexed judge, uint96 indexed courtId, uint256 amount, uint256 courtStake);
    /// @notice A judge withdrew its whole stake in `courtId`.
    /// @param judge The judge.
    /// @param courtId The court left.
    /// @param amount What was paid back.
    event JudgeUnstaked(address indexed judge, uint96 indexed courtId, uint256 amount);
    /// @notice The owner created a court.
    /// @param courtId The new court's id.
    /// @param parent The court above it.
    /// @param name Its name.
    /// @param policy The CID of its policy document.
    /// @param config Its minimum judge stake, jump panel size and case terms.
    event CourtCreated(uint96 indexed courtId, uint96 indexed parent, string name, string policy, CourtConfig config);
    /// @notice The owner changed a court; cases filed before keep the terms they copied.
    /// @param courtId The court.
    /// @param name Its name now.
    /// @param policy The CID of its policy document now.
    /// @param config Its minimum judge stake, jump panel size and case terms now.
    event CourtChanged(uint96 indexed courtId, string name, string policy, CourtConfig config);
    event JudgeSlashed(address indexed judge, address indexed caseAddr, uint256 amount);
    event JudgeRewarded(address indexed judge, address indexed caseAddr, uint256 amount);
    event JudgeRecordChanged(address indexed judge);
    event PartyRecordChanged(address indexed party);
    event TreasuryWithdrawn(address indexed to, uint256 amount);
    event OutcomeHookSet(address hook);
    event OutcomeHookFailed(address indexed caseAddr);

    struct Agent {
        uint256 agentId;
        string name;
        string metadataURI;
        uint64 registeredAt;
    }

    /// @dev Outcomes as a party; kept for every address, registered or not.
    struct PartyRecord {
        int64 reputation;
        uint32 casesWon;
        uint32 casesLost;
        uint32 noShows;
    }

    struct Court {
        uint96 parent;
        uint8 depth;
        string name;
        string policy;
        CourtConfig config;
        uint96[] children;
        /// @dev Judges whose counted stake in this court's subtree is above zero.
        uint256 judgeCount;
    }

    struct Judge {
        /// @dev The judge's stake in all courts together.
        uint256 stake;
        uint256 rewards;
        uint256 slashed;
        uint32 votesCast;
        uint32 majorityVotes;
        uint32 minorityVotes;
        uint32 noShows;
        uint32 activeCases;
        uint32 totalAssigned;
        uint64 stakedAt;
    }

    struct AgentView {
        address addr;
        bool registered;
        uint256 agentId;
        string name;
        string metadataURI;
        uint64 registeredAt;
        int64 reputation;
        uint32 casesWon;
        uint32 casesLost;
        uint32 noShows;
        uint256 judgeStake;
        bool isJudge;
    }

    struct JudgeView {
        address addr;
        uint256 stake;
        bool eligible;
        uint256 rewards;
        uint256 slashed;
        uint32 votesCast;
        uint32 majorityVotes;
        uint32 minorityVotes;
        uint32 noShows;
        uint32 activeCases;
        uint32 totalAssigned;
        uint64 stakedAt;
    }

    struct Overview {
        uint256 agentCount;
        uint256 judgeCount;
        uint256 eligibleJudgeCount;
        uint256 totalJudgeStake;
        uint256 treasury;
        uint256 minJudgeStake;
        uint16 slashBps;
    }

    /// @notice The General court: the root of the tree and where a case filed with court 0 goes.
    uint96 public constant GENERAL_COURT = 1;
    /// @notice At most this many courts, at most this deep below the General court (depth 0).
    uint256 public constant MAX_COURTS = 64;
    uint256 public constant MAX_DEPTH = 3;
    /// @notice A judge stakes in at most this many courts at once.
    uint256 public constant MAX_COURTS_PER_JUDGE = 4;
    uint256 public constant MAX_POLICY_LENGTH = 128;
    uint256 public constant MAX_PANEL_SIZE = 31;

    int64 public constant REPUTATION_WIN = 10;
    int64 public constant REPUTATION_LOSS = -5;
    int64 public constant REPUTATION_NO_SHOW = -20;
    /// @notice Gas the outcome hook gets at the end of every case (CourtReputation: two ERC-8004 feedbacks).
    uint256 public constant OUTCOME_HOOK_GAS = 600_000;

    address public owner;
    address public factory;
    uint16 public slashBps;
    uint256 public totalJudgeStake;
    uint256 public treasury;

    mapping(address => Agent) private agents;
    address[] private agentList;
    mapping(address => PartyRecord) private parties;
    mapping(address => Judge) private judges;
    address[] private judgeList;
    mapping(address => uint256) private judgeIndexPlusOne;
    mapping(address => bool) public isCase;
    /// @notice Told how each case ends (CourtReputation posts it as ERC-8004 feedback); none if zero.
    address public outcomeHook;
    /// @dev Courts 1..courtCount; the General court is 1.
    mapping(uint96 => Court) private courts;
    uint96 public courtCount;
    /// @dev Each court's draw weights with history: a judge's weight in a court is the sum of its
    /// counted stakes in that court and every court below it.
    mapping(uint96 => SortitionTree.Tree) private pools;
    /// @dev The courts each judge has a stake in, its stake in each, and what of it counts (the
    /// stake while at or above the court's minimum, else 0).
    mapping(address => uint96[]) private judgeCourts;
    /// @dev One slot per (judge, court): counted << 128 | stake.
    mapping(address => mapping(uint96 => uint256)) private courtStakes;

    /// @dev Weight ranges cut out of a draw's line (drawn or excluded judges), sorted by start.
    struct Cuts {
        uint256[] start;
        uint256[] len;
        uint256 n;
        uint256 weight;
    }

    /// @dev A judge who can no longer serve is skipped; this many skips per draw at most.
    uint256 private constant MAX_SKIPS = 32;

    /// @param slashBps_ The share of a judge's stakes taken for a minority vote or a no-show.
    /// @param generalPolicy The CID of the General court's policy document.
    /// @param general The General court's minimum judge stake and case terms.
    constructor(uint16 slashBps_, string memory generalPolicy, CourtConfig memory general) {
        if (slashBps_ > 10_000) revert InvalidParameter();
        owner = msg.sender;
        slashBps = slashBps_;
        _createCourt(0, "General", generalPolicy, general);
    }

    modifier onlyCase() {
        if (!isCase[msg.sender]) revert OnlyCase();
        _;
    }

    /// @notice Links the factory, once, right after both are deployed.
    function setFactory(address factory_) external {
        if (msg.sender != owner) revert OnlyOwner();
        if (factory != address(0)) revert FactoryAlreadySet();
        factory = factory_;
    }

    /// @notice The factory marks a new case, which may then touch judge stakes and records.
    /// @param caseAddr The case.
    function registerCase(address caseAddr) external {
        if (msg.sender != factory) revert OnlyFactory();
        isCase[caseAddr] = true;
    }

    // ------------------------------------------------------------------ agents

    /// @notice Registers the caller as an agent, or updates its name and metadata URI.
    /// The agent id (ERC-8004 style) is assigned once, in registration order, from 1.
    function selfRegister(string calldata name, string calldata metadataURI) external {
        uint256 nameLength = bytes(name).length;
        if (nameLength == 0) revert NameRequired();
        if (nameLength > MAX_NAME_LENGTH) revert NameTooLong(MAX_NAME_LENGTH);
        if (bytes(metadataURI).length > MAX_URI_LENGTH) revert UriTooLong(MAX_URI_LENGTH);
        Agent storage a = agents[msg.sender];
        a.name = name;
        a.metadataURI = metadataURI;
        if (a.agentId == 0) {
            agentList.push(msg.sender);
            a.agentId = agentList.length;
            a.registeredAt = uint64(block.timestamp);
            emit AgentRegistered(msg.sender, a.agentId, name, metadataURI);
        } else {
            emit AgentUpdated(msg.sender, a.agentId, name, metadataURI);
        }
    }

    // ------------------------------------------------------------------ courts

    /// @notice Creates a court below `parent`; only the owner.
    /// @param parent The court above it (the General court is 1).
    /// @param name Its name (1 to 64 bytes).
    /// @param policy The CID of its policy document (1 to 128 bytes; only the length is checked).
    /// @param config Its minimum judge stake (at least the parent's), jump panel size and case terms.
    /// @return courtId The new court's id.
    function createCourt(uint96 parent, string calldata name, string calldata policy, CourtConfig calldata config)
        external
        returns (uint96 courtId)
    {
        if (msg.sender != owner) revert OnlyOwner();
        _court(parent);
        return _createCourt(parent, name, policy, config);
    }

    /// @notice Changes a court's name, policy and parameters; only the owner. Cases already filed
    /// keep the terms they copied; stakes already placed count as long as they reach the new minimum.
    /// @param courtId The court.
    /// @param name Its name (1 to 64 bytes).
    /// @param policy The CID of its policy document (1 to 128 bytes).
    /// @param config Its minimum judge stake (between the parent's and every child's), jump panel size and case terms.
    function setCourt(uint96 courtId, string calldata name, string calldata policy, CourtConfig calldata config)
        external
    {
        if (msg.sender != owner) revert OnlyOwner();
        Court storage c = _court(courtId);
        _checkCourt(c.parent, name, policy, config);
        for (uint256 i = 0; i < c.children.length; i++) {
            if (courts[c.children[i]].config.minJudgeStake < config.minJudgeStake) revert InvalidParameter();
        }
        c.name = name;
        c.policy = policy;
        c.config = config;
        emit CourtChanged(courtId, name, policy, config);
    }

    /// @notice What a case filed in `courtId` copies: the court (0 means the General court), the
    /// court whose pool hears its appeal (the parent when the appeal panel reaches the jump size),
    /// and the terms.
    /// @param courtId The court named at filing; 0 for the General court.
    /// @return court The court the case is filed in.
    /// @return appealCourt The court whose pool seats its appeal.
    /// @return terms The court's terms now.
    function caseConfig(uint96 courtId) external view returns (uint96 court, uint96 appealCourt, CaseTerms memory terms) {
        court = courtId == 0 ? GENERAL_COURT : courtId;
        Court storage c = _court(court);
        terms = c.config.terms;
        uint16 jump = c.config.jumpPanelSize;
        appealCourt = c.parent != 0 && jump != 0 && terms.appealPanelSize >= jump ? c.parent : court;
    }

    /// @notice One court, with its pool now.
    /// @param courtId The court.
    /// @return exists False for an id that is no court.
    /// @return v The court.
    function getCourt(uint96 courtId) public view returns (bool exists, CourtView memory v) {
        if (courtId == 0 || courtId > courtCount) return (false, v);
        Court storage c = courts[courtId];
        v.id = courtId;
        v.parent = c.parent;
        v.depth = c.depth;
        v.name = c.name;
        v.policy = c.policy;
        v.config = c.config;
        v.children = c.children;
        v.judgeCount = c.judgeCount;
        v.totalStake = pools[courtId].latestTotal();
        return (true, v);
    }

    /// @notice How a court's draw tree is used: leaves handed out so far (the highest leaf number;
    /// a departed judge's leaf goes to the next new judge, so churn never raises it) and judges in it now.
    /// @param courtId The court.
    /// @return leaves Leaves handed out, at most 65,536.
    /// @return members Judges with a weight in the court now.
    function poolLeaves(uint96 courtId) external view returns (uint256 leaves, uint256 members) {
        SortitionTree.Tree storage pool = pools[courtId];
        return (pool.leaves, pool.members);
    }

    /// @notice Every court, in id order (at most MAX_COURTS).
    /// @return out The courts.
    function getCourts() external view returns (CourtView[] memory out) {
        out = new CourtView[](courtCount);
        for (uint96 i = 0; i < courtCount; i++) {
            (, out[i]) = getCourt(i + 1);
        }
    }

    // ------------------------------------------------------------------ judges

    /// @notice Adds the sent value to the caller's stake in `courtId`; that stake must reach the
    /// court's minimum. It counts in the court and every court above it.
    /// @param courtId The court (0 means the General court).
    function stakeAsJudge(uint96 courtId) external payable {
        if (courtId == 0) courtId = GENERAL_COURT;
        Court storage c = _court(courtId);
        uint256 total = _stakeIn(msg.sender, courtId) + msg.value;
        uint256 minimum = c.config.minJudgeStake;
        if (msg.value == 0 || total < minimum) revert StakeBelowMinimum(minimum, total);
        Judge storage j = judges[msg.sender];
        if (_stakeIn(msg.sender, courtId) == 0) {
            if (judgeCourts[msg.sender].length == MAX_COURTS_PER_JUDGE) revert TooManyCourts(MAX_COURTS_PER_JUDGE);
            judgeCourts[msg.sender].push(courtId);
        }
        j.stake += msg.value;
        totalJudgeStake += msg.value;
        if (judgeIndexPlusOne[msg.sender] == 0) {
            judgeList.push(msg.sender);
            judgeIndexPlusOne[msg.sender] = judgeList.length;
            j.stakedAt = uint64(block.timestamp);
        }
        _setCourtStake(msg.sender, courtId, total);
        emit JudgeStaked(msg.sender, courtId, msg.value, total);
    }

    /// @notice Withdraws the caller's whole stake, in every court, and leaves the pool; refused while serving.
    function unstake() external {
        Judge storage j = judges[msg.sender];
        if (j.stake == 0) revert NothingStaked();
        if (j.activeCases > 0) revert JudgeServingOnOpenCase(j.activeCases);
        uint96[] storage list = judgeCourts[msg.sender];
        uint256 amount = j.stake;
        while (list.length > 0) {
            _leaveCourt(msg.sender, list.length - 1);
        }
        j.stake = 0;
        totalJudgeStake -= amount;
        _leavePool(msg.sender);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// @notice Withdraws the caller's whole stake in `courtId`; refused while serving on any case.
    /// @param courtId The court (0 means the General court).
    function unstakeFrom(uint96 courtId) external {
        if (courtId == 0) courtId = GENERAL_COURT;
        Judge storage j = judges[msg.sender];
        if (j.activeCases > 0) revert JudgeServingOnOpenCase(j.activeCases);
        uint96[] storage list = judgeCourts[msg.sender];
        uint256 k = 0;
        while (k < list.length && list[k] != courtId) k++;
        if (k == list.length) revert NotStakedInCourt(courtId);
        uint256 amount = _leaveCourt(msg.sender, k);
        j.stake -= amount;
        totalJudgeStake -= amount;
        if (list.length == 0) _leavePool(msg.sender);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// @notice The caller's stake in one court.
    /// @param judge The judge.
    /// @param courtId The court.
    /// @return The stake `judge` placed in `courtId` (not counting stakes in courts below it).
    function stakeOf(address judge, uint96 courtId) external view returns (uint256) {
        return _stakeIn(judge, courtId);
    }

    /// @notice The courts a judge has a stake in, and its stake in each.
    /// @param judge The judge.
    /// @return courtIds The courts.
    /// @return stakes The stake in each.
    function getJudgeCourts(address judge) external view returns (uint96[] memory courtIds, uint256[] memory stakes) {
        courtIds = judgeCourts[judge];
        stakes = new uint256[](courtIds.length);
        for (uint256 i = 0; i < courtIds.length; i++) {
            stakes[i] = _stakeIn(judge, courtIds[i]);
        }
    }

    /// @notice Whether `judge` can be drawn in the General court now.
    /// @param judge The judge.
    /// @return True when a stake of its, in any court, reaches that court's minimum.
    function isEligibleJudge(address judge) public view returns (bool) {
        return isEligibleJudgeIn(judge, GENERAL_COURT);
    }

    /// @notice Whether `judge` can be drawn in `courtId` now: a stake of its in that court or one
    /// below it reaches its court's minimum.
    /// @param judge The judge.
    /// @param courtId The court.
    /// @return True when it can.
    function isEligibleJudgeIn(address judge, uint96 courtId) public view returns (bool) {
        uint96[] storage list = judgeCourts[judge];
        for (uint256 i = 0; i < list.length; i++) {
            uint96 c = list[i];
            if (_stakeIn(judge, c) >= courts[c].config.minJudgeStake && _isWithin(c, courtId)) return true;
        }
        return false;
    }

    /// @notice A page of a court's draw pool, in tree-leaf order: who holds each leaf now and its
    /// weight there (its counted stakes in the court and below). Bounded by `limit`, unlike a scan
    /// of every judge; a free leaf shows the zero address.
    /// @param courtId The court.
    /// @param offset The first leaf, from 0.
    /// @param limit At most this many leaves.
    /// @return leaves Leaves handed out in the court (the page's total).
    /// @return judges Each leaf's judge (zero: free).
    /// @return weights Each judge's weight in the court now.
    function getCourtJudges(uint96 courtId, uint256 offset, uint256 limit)
        external
        view
        returns (uint256 leaves, address[] memory judges, uint256[] memory weights)
    {
        SortitionTree.Tree storage pool = pools[courtId];
        leaves = pool.leaves;
        uint256 n = offset >= leaves ? 0 : leaves - offset;
        if (limit < n) n = limit;
        judges = new address[](n);
        weights = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            address who = pool.ownerAt(offset + i + 1, type(uint64).max);
            if (who != address(0) && pool.leafOf(who) == offset + i + 1) {
                judges[i] = who;
                weights[i] = pool.weightOf(who);
            }
        }
    }

    /// @notice Draws `size` distinct judges from `courtId`'s pool, each with a chance proportional
    /// to its counted stake there as it was at the end of block `atBlock`, never one of `excluded`,
    /// and only judges still eligible in that court now. Deterministic in (seed, atBlock, pool
    /// history): the caller chooses none of them.
    /// @dev Sampling without replacement: every drawn or excluded judge's weight range is cut out
    /// of the line before the next point is drawn, so no draw is wasted on a repeat.
    /// @param courtId The court whose pool is drawn from.
    /// @param seed The draw's randomness.
    /// @param atBlock The block whose end state of the pool is read.
    /// @param size How many judges.
    /// @param excluded Who may not be drawn (the parties, earlier panels).
    /// @return chosen The judges, in draw order.
    function drawPanel(uint96 courtId, bytes32 seed, uint64 atBlock, uint256 size, address[] calldata excluded)
        external
        view
        returns (address[] memory chosen)
    {
        SortitionTree.Tree storage pool = pools[courtId];
        chosen = new address[](size);
        uint256 room = excluded.length + size + MAX_SKIPS;
        Cuts memory cuts = Cuts(new uint256[](room), new uint256[](room), 0, 0);
        for (uint256 i = 0; i < excluded.length; i++) {
            uint256 leaf = pool.leafOf(excluded[i]);
            if (leaf == 0) continue;
            (uint256 start, uint256 w) = _leafRange(pool, leaf, atBlock);
            if (w > 0 && !_isCut(cuts, start)) _cut(cuts, start, w);
        }
        _fill(courtId, seed, atBlock, cuts, chosen, excluded);
    }

    /// @dev Draws points until `chosen` is full of judges eligible in `courtId` now.
    function _fill(
        uint96 courtId,
        bytes32 seed,
        uint64 atBlock,
        Cuts memory cuts,
        address[] memory chosen,
        address[] calldata excluded
    ) private view {
        SortitionTree.Tree storage pool = pools[courtId];
        uint256 total = pool.totalAt(atBlock);
        uint256 got = 0;
        for (uint256 nonce = 0; got < chosen.length; nonce++) {
            if (total <= cuts.weight || cuts.n == cuts.start.length) revert NotEnoughJudges(got, chosen.length);
            address judge = _drawOne(pool, cuts, uint256(keccak256(abi.encode(seed, nonce))), total, atBlock);
            // Left the court or fell below its minimum since (a judge can only take itself out), or
            // an excluded judge who left and came back under a new leaf: skipped.
            if (judge != address(0) && isEligibleJudgeIn(judge, courtId) && !_listed(excluded, judge)) {
                chosen[got++] = judge;
            }
        }
    }

    /// @notice A judge's draw weight in a court at the end of block `atBlock`, and the court's pool then.
    /// @param courtId The court.
    /// @param judge The judge.
    /// @param atBlock The block.
    /// @return weight The judge's weight then (its counted stakes in the court and those below it).
    /// @return total The court's whole pool then.
    function weightAt(uint96 courtId, address judge, uint64 atBlock) external view returns (uint256 weight, uint256 total) {
        SortitionTree.Tree storage pool = pools[courtId];
        uint256 leaf = pool.leafOf(judge);
        if (leaf != 0) (, weight) = _leafRange(pool, leaf, atBlock);
        total = pool.totalAt(atBlock);
    }

    // --------------------------------------------------------- case callbacks

    /// @notice A case armed a draw that reads `courtId`'s pool as of this block: the pool's tree keeps
    /// what it holds now for it (see SortitionTree).
    /// @param courtId The court whose pool the draw reads.
    function drawArmed(uint96 courtId) external onlyCase {
        pools[courtId].markArmed();
    }

    function judgeAssigned(address judge) external onlyCase {
        Judge storage j = judges[judge];
        j.activeCases += 1;
        j.totalAssigned += 1;
        emit JudgeRecordChanged(judge);
    }

    function judgeVoted(address judge) external onlyCase {
        judges[judge].votesCast += 1;
        emit JudgeRecordChanged(judge);
    }

    /// @notice Ends a judge's service on a case; minority voters and no-shows are slashed.
    function judgeReleased(address judge, JudgeResult result) external onlyCase {
        Judge storage j = judges[judge];
        j.activeCases -= 1;
        if (result == JudgeResult.Majority) {
            j.majorityVotes += 1;
        } else if (result == JudgeResult.Minority) {
            j.minorityVotes += 1;
            _slash(judge, j);
        } else if (result == JudgeResult.NoShow) {
            j.noShows += 1;
            _slash(judge, j);
        }
        emit JudgeRecordChanged(judge);
    }

    /// @notice Receives a case's court fee: `each` to every listed judge's stake (in the first court
    /// it is staked in), the rest to the treasury.
    /// @param rewarded The judges who voted for the final outcome.
    /// @param each What each of them gets.
    function creditRewards(address[] calldata rewarded, uint256 each) external payable onlyCase {
        uint256 paid = each * rewarded.length;
        require(paid <= msg.value, "CourtRegistry: rewards exceed the fee sent");
        for (uint256 i = 0; i < rewarded.length; i++) {
            address who = rewarded[i];
            Judge storage j = judges[who];
            j.stake += each;
            j.rewards += each;
            // Into the first court the judge is staked in (the General court if none is left).
            uint96[] storage list = judgeCourts[who];
            if (list.length == 0) {
                list.push(GENERAL_COURT);
                if (judgeIndexPlusOne[who] == 0) {
                    judgeList.push(who);
                    judgeIndexPlusOne[who] = judgeList.length;
                }
            }
            uint96 into = list[0];
            _setCourtStake(who, into, _stakeIn(who, into) + each);
            emit JudgeRewarded(rewarded[i], msg.sender, each);
            emit JudgeRecordChanged(rewarded[i]);
        }
        totalJudgeStake += paid;
        treasury += msg.value - paid;
    }

    function recordParties(address winner, address loser, bool noShow) external onlyCase {
        PartyRecord storage w = parties[winner];
        w.casesWon += 1;
        w.reputation += REPUTATION_WIN;
        PartyRecord storage l = parties[loser];
        l.casesLost += 1;
        if (noShow) {
            l.noShows += 1;
            l.reputation += REPUTATION_NO_SHOW;
        } else {
            l.reputation += REPUTATION_LOSS;
        }
        emit PartyRecordChanged(winner);
        emit PartyRecordChanged(loser);
        _tellOutcomeHook(winner, loser, noShow ? 1 : 0);
    }

    /// @notice A case was dismissed with no verdict: no record changes, only the outcome hook hears it.
    function recordDismissal(address plaintiff, address defendant) external onlyCase {
        _tellOutcomeHook(plaintiff, defendant, 2);
    }

    // ------------------------------------------------------------------- owner

    /// @notice Sets (or, with zero, removes) the contract told how each case ends.
    function setOutcomeHook(address hook) external {
        if (msg.sender != owner) revert OnlyOwner();
        outcomeHook = hook;
        emit OutcomeHookSet(hook);
    }

    function withdrawTreasury(address to, uint256 amount) external {
        if (msg.sender != owner) revert OnlyOwner();
        if (amount > treasury) revert AmountExceedsTreasury(treasury);
        treasury -= amount;
        emit TreasuryWithdrawn(to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    // ------------------------------------------------------------------- views

    function getAgent(address who) public view returns (AgentView memory v) {
        Agent storage a = agents[who];
        PartyRecord storage p = parties[who];
        v.addr = who;
        v.registered = a.agentId != 0;
        v.agentId = a.agentId;
        v.name = a.name;
        v.metadataURI = a.metadataURI;
        v.registeredAt = a.registeredAt;
        v.reputation = p.reputation;
        v.casesWon = p.casesWon;
        v.casesLost = p.casesLost;
        v.noShows = p.noShows;
        v.judgeStake = judges[who].stake;
        v.isJudge = isEligibleJudge(who);
    }

    /// @notice A page of agents in registration order, with the total.
    function getAgents(uint256 offset, uint256 limit) external view returns (uint256 total, AgentView[] memory page) {
        total = agentList.length;
        // Written so that no offset or limit can overflow: a huge limit means "to the end".
        uint256 n = offset >= total ? 0 : total - offset;
        if (limit < n) n = limit;
        page = new AgentView[](n);
        for (uint256 i = 0; i < n; i++) {
            page[i] = getAgent(agentList[offset + i]);
        }
    }

    /// @notice One judge's record and its stake in all courts together.
    /// @param who The judge.
    /// @return v Its record; `eligible` is for the General court.
    function getJudge(address who) public view returns (JudgeView memory v) {
        Judge storage j = judges[who];
        v.addr = who;
        v.stake = j.stake;
        v.eligible = isEligibleJudge(who);
        v.rewards = j.rewards;
        v.slashed = j.slashed;
        v.votesCast = j.votesCast;
        v.majorityVotes = j.majorityVotes;
        v.minorityVotes = j.minorityVotes;
        v.noShows = j.noShows;
        v.activeCases = j.activeCases;
        v.totalAssigned = j.totalAssigned;
        v.stakedAt = j.stakedAt;
    }

    /// @notice Every judge in the pool (staked and not unstaked), eligible or not; unbounded: page
    /// a court's pool with `getCourtJudges`.
    /// @return minimumStake The General court's minimum judge stake.
    /// @return pool Every judge's record.
    function getJudgePool() external view returns (uint256 minimumStake, JudgeView[] memory pool) {
        minimumStake = minJudgeStake();
        pool = new JudgeView[](judgeList.length);
        for (uint256 i = 0; i < judgeList.length; i++) {
            pool[i] = getJudge(judgeList[i]);
        }
    }

    /// @notice The registry's counts and money, in one bounded call.
    /// @return o Agents, judges (`eligibleJudgeCount`: the General court's), stakes, treasury, the General minimum.
    function getOverview() external view returns (Overview memory o) {
        o.agentCount = agentList.length;
        o.judgeCount = judgeList.length;
        o.eligibleJudgeCount = courts[GENERAL_COURT].judgeCount;
        o.totalJudgeStake = totalJudgeStake;
        o.treasury = treasury;
        o.minJudgeStake = minJudgeStake();
        o.slashBps = slashBps;
    }

    function agentCount() external view returns (uint256) {
        return agentList.length;
    }

    /// @notice The General court's minimum judge stake.
    /// @return The minimum.
    function minJudgeStake() public view returns (uint256) {
        return courts[GENERAL_COURT].config.minJudgeStake;
    }

    // ---------------------------------------------------------------- internal

    /// @dev The hook runs with a fixed gas allowance and its failure is only logged, so it can never
    /// block a case's end. The allowance must be there in full: otherwise a wallet's gas estimate
    /// could settle on a limit where the hook silently runs out.
    function _tellOutcomeHook(address a, address b, uint8 kind) private {
        address hook = outcomeHook;
        if (hook == address(0)) return;
        uint256 needed = OUTCOME_HOOK_GAS + OUTCOME_HOOK_GAS / 63 + 10_000;
        if (gasleft() < needed) revert NotEnoughGasForOutcomeHook(needed);
        try ICaseOutcomeHook(hook).recordOutcome{gas: OUTCOME_HOOK_GAS}(msg.sender, a, b, kind) {}
        catch {
            emit OutcomeHookFailed(msg.sender);
        }
    }

    /// @dev Takes `slashBps` of each of the judge's court stakes (its whole stake, as before courts).
    function _slash(address judge, Judge storage j) private {
        uint96[] storage list = judgeCourts[judge];
        uint256 amount = 0;
        for (uint256 i = 0; i < list.length; i++) {
            uint96 c = list[i];
            uint256 stake = _stakeIn(judge, c);
            uint256 cut = (stake * slashBps) / 10_000;
            if (cut == 0) continue;
            amount += cut;
            _setCourtStake(judge, c, stake - cut);
        }
        if (amount == 0) return;
        j.stake -= amount;
        j.slashed += amount;
        totalJudgeStake -= amount;
        treasury += amount;
        emit JudgeSlashed(judge, msg.sender, amount);
    }

    /// @dev Sets a judge's stake in one court, and moves what of it counts (the stake while at or
    /// above the court's minimum) in that court's pool and every pool above it.
    function _setCourtStake(address judge, uint96 courtId, uint256 stake) private {
        if (stake > type(uint128).max) revert InvalidParameter();
        uint256 old = courtStakes[judge][courtId] >> 128;
        uint256 now_ = stake >= courts[courtId].config.minJudgeStake ? stake : 0;
        courtStakes[judge][courtId] = (now_ << 128) | stake;
        if (old == now_) return;
        for (uint96 c = courtId; c != 0; c = courts[c].parent) {
            SortitionTree.Tree storage pool = pools[c];
            uint256 before = pool.weightOf(judge);
            uint256 after_ = before + now_ - old;
            pool.setWeight(judge, after_);
            if (before == 0 && after_ != 0) courts[c].judgeCount += 1;
            else if (before != 0 && after_ == 0) courts[c].judgeCount -= 1;
        }
    }

    /// @dev Takes the judge's stake in `judgeCourts[judge][k]` out of every pool and the list;
    /// returns it (the caller pays it and fixes the totals).
    function _leaveCourt(address judge, uint256 k) private returns (uint256 amount) {
        uint96[] storage list = judgeCourts[judge];
        uint96 courtId = list[k];
        amount = _stakeIn(judge, courtId);
        _setCourtStake(judge, courtId, 0);
        list[k] = list[list.length - 1];
        list.pop();
        emit JudgeUnstaked(judge, courtId, amount);
    }

    /// @dev A judge's stake in one court (what counts of it is the high half of the same slot).
    function _stakeIn(address judge, uint96 courtId) private view returns (uint256) {
        return uint128(courtStakes[judge][courtId]);
    }

    function _court(uint96 courtId) private view returns (Court storage c) {
        if (courtId == 0 || courtId > courtCount) revert UnknownCourt(courtId);
        return courts[courtId];
    }

    /// @dev Whether `c` is `ancestor` or a court below it.
    function _isWithin(uint96 c, uint96 ancestor) private view returns (bool) {
        for (; c != 0; c = courts[c].parent) {
            if (c == ancestor) return true;
        }
        return false;
    }

    function _createCourt(uint96 parent, string memory name, string memory policy, CourtConfig memory config)
        private
        returns (uint96 courtId)
    {
        _checkCourt(parent, name, policy, config);
        if (courtCount == MAX_COURTS) revert CourtTreeFull();
        uint8 depth = parent == 0 ? 0 : courts[parent].depth + 1;
        if (depth > MAX_DEPTH) revert CourtTreeFull();
        courtId = ++courtCount;
        Court storage c = courts[courtId];
        c.parent = parent;
        c.depth = depth;
        c.name = name;
        c.policy = policy;
        c.config = config;
        if (parent != 0) courts[parent].children.push(courtId);
        emit CourtCreated(courtId, parent, name, policy, config);
    }

    /// @dev A court's name, policy and parameters must make sense, and its minimum stake reach its parent's.
    function _checkCourt(uint96 parent, string memory name, string memory policy, CourtConfig memory config)
        private
        view
    {
        uint256 nameLength = bytes(name).length;
        if (nameLength == 0) revert NameRequired();
        if (nameLength > MAX_NAME_LENGTH) revert NameTooLong(MAX_NAME_LENGTH);
        uint256 policyLength = bytes(policy).length;
        if (policyLength == 0 || policyLength > MAX_POLICY_LENGTH) revert PolicyInvalid(MAX_POLICY_LENGTH);
        CaseTerms memory t = config.terms;
        if (
            config.minJudgeStake == 0 || (parent != 0 && config.minJudgeStake < courts[parent].config.minJudgeStake)
                || t.minPartyStake == 0 || t.courtFeeBps > 10_000 || t.judgeRewardBps > 10_000 || t.responseWindow == 0
                || t.deliberationPeriod == 0 || (t.hiddenVotes && (t.commitPeriod == 0 || t.revealPeriod == 0))
                || t.panelSize % 2 == 0 || t.appealPanelSize % 2 == 0 || t.appealPanelSize < t.panelSize
                || t.appealPanelSize > MAX_PANEL_SIZE
        ) revert InvalidParameter();
    }

    function _leafRange(SortitionTree.Tree storage pool, uint256 leaf, uint64 atBlock)
        private
        view
        returns (uint256 start, uint256 weight)
    {
        start = pool.prefixAt(leaf - 1, atBlock);
        weight = pool.prefixAt(leaf, atBlock) - start;
    }

    function _listed(address[] calldata list, address who) private pure returns (bool) {
        for (uint256 i = 0; i < list.length; i++) {
            if (list[i] == who) return true;
        }
        return false;
    }

    /// @dev One point on the line less the cuts, mapped back onto the whole line; its judge's
    /// range is cut so no later point can land on it.
    function _drawOne(SortitionTree.Tree storage pool, Cuts memory cuts, uint256 rnd, uint256 total, uint64 atBlock)
        private
        view
        returns (address)
    {
        uint256 p = rnd % (total - cuts.weight);
        for (uint256 k = 0; k < cuts.n && p >= cuts.start[k]; k++) {
            p += cuts.len[k];
        }
        (uint256 leaf, uint256 start) = pool.find(p, atBlock);
        _cut(cuts, start, pool.prefixAt(leaf, atBlock) - start);
        return pool.ownerAt(leaf, atBlock);
    }

    function _isCut(Cuts memory c, uint256 start) private pure returns (bool) {
        for (uint256 k = 0; k < c.n; k++) {
            if (c.start[k] == start) return true;
        }
        return false;
    }

    /// @dev Cuts [start, start + len) out of the line, keeping the cuts sorted by start.
    function _cut(Cuts memory c, uint256 start, uint256 len) private pure {
        uint256 k = c.n;
        while (k > 0 && c.start[k - 1] > start) {
            c.start[k] = c.start[k - 1];
            c.len[k] = c.len[k - 1];
            k--;
        }
        c.start[k] = start;
        c.len[k] = len;
        c.n += 1;
        c.weight += len;
    }

    function _leavePool(address judge) private {
        uint256 idxPlusOne = judgeIndexPlusOne[judge];
        // Already out: a judge who unstaked can hold stake again, a reward credited at a later settle.
        if (idxPlusOne == 0) return;
        uint256 idx = idxPlusOne - 1;
        address last = judgeList[judgeList.length - 1];
        judgeList[idx] = last;
        judgeIndexPlusOne[last] = idx + 1;
        judgeList.pop();
        judgeIndexPlusOne[judge] = 0;
    }
}
