// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseTerms, CourtConfig} from "../interfaces/CourtTypes.sol";
import {SortitionTree} from "./SortitionTree.sol";

/// @title The registry's storage, types, events and errors, shared by CourtRegistry and RegistryBook.
/// @notice One layout for both: RegistryBook's code runs on CourtRegistry's storage (delegatecall),
/// so neither may declare storage of its own. See CourtRegistry for what the registry does.
abstract contract RegistryBase {

    /// @notice The longest name an agent or a court may have, in bytes.
    /// @return The length.
    uint256 public constant MAX_NAME_LENGTH = 64;
    /// @notice The longest metadata URI an agent may give, in bytes.
    /// @return The length.
    uint256 public constant MAX_URI_LENGTH = 512;

    /// @notice Only the registry's owner may do this.
    error OnlyOwner();
    /// @notice Only the case factory may do this.
    error OnlyFactory();
    /// @notice Only a case contract created by the factory may do this.
    error OnlyCase();
    /// @notice The factory is linked already; it is set once.
    error FactoryAlreadySet();
    /// @notice A name may not be empty.
    error NameRequired();
    /// @notice The name is too long.
    /// @param max The longest allowed, in bytes.
    error NameTooLong(uint256 max);
    /// @notice The metadata URI is too long.
    /// @param max The longest allowed, in bytes.
    error UriTooLong(uint256 max);
    /// @notice The stake would stay below the court's minimum (or nothing was sent).
    /// @param minimum The court's minimum judge stake.
    /// @param total The caller's stake in the court with what it sent.
    error StakeBelowMinimum(uint256 minimum, uint256 total);
    /// @notice The caller has no stake to withdraw.
    error NothingStaked();
    /// @notice A judge seated on an open case may not unstake until the case releases it.
    /// @param openCases The open cases it serves on.
    error JudgeServingOnOpenCase(uint256 openCases);
    /// @notice A draw armed on this court's pool (or a pool above it, where the stake also counts)
    /// is waiting to be executed: the judge may not leave until it is executed or the case ends.
    /// @param courtId The court whose pool the waiting draw reads.
    error DrawPendingInCourt(uint96 courtId);
    /// @notice The treasury holds less than asked for.
    /// @param treasury What it holds.
    error AmountExceedsTreasury(uint256 treasury);
    /// @notice A parameter is out of range (a zero address, a share over 100%, an even panel, a
    /// minimum below the parent's or above a child's, a stake too large to record, ...).
    error InvalidParameter();
    /// @notice Sending the coin to its recipient failed.
    error TransferFailed();
    /// @notice The court's pool has too few judges who can be drawn (not parties, not excluded, eligible).
    /// @param available How many were drawn before the pool ran out.
    /// @param required How many the panel needs.
    error NotEnoughJudges(uint256 available, uint256 required);
    /// @notice The transaction has too little gas left to give the outcome hook its full allowance;
    /// send it with more gas.
    /// @param needed The gas that must be left when the hook is called.
    error NotEnoughGasForOutcomeHook(uint256 needed);
    /// @notice The outcome hook must be a contract.
    /// @param hook The address given, which has no code.
    error HookHasNoCode(address hook);
    /// @notice No court has this id.
    /// @param courtId The id given.
    error UnknownCourt(uint96 courtId);
    /// @notice The court tree is full: MAX_COURTS courts, or a new court would be deeper than MAX_DEPTH.
    error CourtTreeFull();
    /// @notice A court's policy must be a CID of 1 to `maxLength` bytes.
    /// @param maxLength The longest allowed, in bytes.
    error PolicyInvalid(uint256 maxLength);
    /// @notice A judge may hold stakes in at most `max` courts at once.
    /// @param max The limit (MAX_COURTS_PER_JUDGE).
    error TooManyCourts(uint256 max);
    /// @notice The caller has no stake in this court.
    /// @param courtId The court.
    error NotStakedInCourt(uint96 courtId);

    /// @notice An address registered itself as an agent.
    /// @param agent The agent's address.
    /// @param agentId Its id, in registration order from 1.
    /// @param name Its name.
    /// @param metadataURI Its metadata URI.
    event AgentRegistered(address indexed agent, uint256 indexed agentId, string name, string metadataURI);
    /// @notice An agent changed its name or metadata URI.
    /// @param agent The agent's address.
    /// @param agentId Its id.
    /// @param name Its name now.
    /// @param metadataURI Its metadata URI now.
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
    /// @notice A judge lost part of its stakes to the treasury (a minority vote or a no-show).
    /// @param judge The judge.
    /// @param caseAddr The case.
    /// @param amount What was taken, from all its court stakes together.
    event JudgeSlashed(address indexed judge, address indexed caseAddr, uint256 amount);
    /// @notice A judge's share of a case's court fee was added to its stake.
    /// @param judge The judge.
    /// @param caseAddr The case.
    /// @param amount What was added.
    event JudgeRewarded(address indexed judge, address indexed caseAddr, uint256 amount);
    /// @notice A judge's record (counts, stake) changed.
    /// @param judge The judge.
    event JudgeRecordChanged(address indexed judge);
    /// @notice An address's record as a party changed.
    /// @param party The party.
    event PartyRecordChanged(address indexed party);
    /// @notice The owner took money out of the treasury.
    /// @param to Who received it.
    /// @param amount How much.
    event TreasuryWithdrawn(address indexed to, uint256 amount);
    /// @notice The owner set (or, with zero, removed) the outcome hook.
    /// @param hook The hook.
    event OutcomeHookSet(address hook);
    /// @notice The outcome hook failed (or had no code) for a case's end; the case ended anyway.
    /// @param caseAddr The case.
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
    }

    /// @dev What a stake and a draw touch share the first slot, so a new judge writes one slot here.
    struct Judge {
        /// @dev The judge's stake in all courts together.
        uint88 stake;
        uint32 stakedAt;
        /// @dev Its place in `judgeAt` plus one (0: not listed).
        uint24 listIndex;
        uint24 activeCases;
        uint32 totalAssigned;
        /// @dev The courts it has a stake in, one id a byte (the lowest first, at most
        /// MAX_COURTS_PER_JUDGE, no gaps), in the order it first staked there.
        uint32 courts;
        /// @dev Its leaf in the General court's tree (0: none).
        uint24 generalLeaf;
        uint32 votesCast;
        uint32 majorityVotes;
        uint32 minorityVotes;
        uint32 noShows;
        uint128 rewards;
        uint128 slashed;
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
    /// @return The General court's id.
    uint96 public constant GENERAL_COURT = 1;
    /// @notice At most this many courts, at most MAX_DEPTH deep below the General court (depth 0).
    /// @return The limit.
    uint256 public constant MAX_COURTS = 64;
    /// @notice How deep a court may lie below the General court (depth 0).
    /// @return The deepest depth.
    uint256 public constant MAX_DEPTH = 3;
    /// @notice A judge stakes in at most this many courts at once.
    /// @return The limit.
    uint256 public constant MAX_COURTS_PER_JUDGE = 4;
    /// @notice The longest policy CID a court may have, in bytes.
    /// @return The length.
    uint256 public constant MAX_POLICY_LENGTH = 128;
    /// @notice The largest panel a court's terms may ask for (first round or appeal).
    /// @return The size.
    uint256 public constant MAX_PANEL_SIZE = 31;

    /// @notice What a won case adds to a party's reputation.
    /// @return The points.
    int64 public constant REPUTATION_WIN = 10;
    /// @notice What a lost case adds to a party's reputation (negative).
    /// @return The points.
    int64 public constant REPUTATION_LOSS = -5;
    /// @notice What a case lost by default (never answered) adds to a party's reputation (negative).
    /// @return The points.
    int64 public constant REPUTATION_NO_SHOW = -20;
    /// @notice Gas the outcome hook gets at the end of every case (CourtReputation: two ERC-8004 feedbacks).
    /// @return The gas.
    uint256 public constant OUTCOME_HOOK_GAS = 600_000;

    /// @notice Who creates and changes courts, sets the outcome hook and withdraws the treasury.
    /// @return The owner.
    address public owner;
    /// @notice The CaseFactory, the only one that marks new cases.
    /// @return The factory (zero until linked).
    address public factory;
    /// @notice The share of a judge's stakes taken for a minority vote or a no-show.
    /// @return The share in basis points.
    uint16 public slashBps;
    /// @notice The judges' stakes in all courts together; it shares a slot with `courtCount` and the
    /// number of judges listed, which a new judge's stake reads and writes together.
    /// @return The sum, in wei.
    uint128 public totalJudgeStake;
    /// @notice Courts 1..courtCount; the General court is 1.
    /// @return The number of courts.
    uint96 public courtCount;
    /// @dev Judges listed in `judgeAt` (0 .. judgeTotal - 1).
    uint32 internal judgeTotal;
    /// @notice Court fees and slashes the registry holds for the owner to withdraw.
    /// @return The treasury, in wei.
    uint256 public treasury;

    mapping(address => Agent) internal agents;
    address[] internal agentList;
    mapping(address => PartyRecord) internal parties;
    mapping(address => Judge) internal judges;
    /// @dev Every judge with a stake (eligible or not), in no particular order.
    mapping(uint256 => address) internal judgeAt;
    /// @notice Whether an address is a case the factory created (only those touch stakes and records).
    /// @return True for a case.
    mapping(address => bool) public isCase;
    /// @notice Told how each case ends (CourtReputation posts it as ERC-8004 feedback); none if zero.
    /// @return The hook.
    address public outcomeHook;
    mapping(uint96 => Court) internal courts;
    /// @dev Each court's draw weights with history: a judge's weight in a court is the sum of its
    /// counted stakes in that court and every court below it.
    mapping(uint96 => SortitionTree.Tree) internal pools;
    /// @dev One slot per (judge, court), all a stake touches in that court: the judge's draw weight
    /// in the court's tree (bits 128-255), its own stake in the court (32-127), whether that stake
    /// counts (bit 31: it reached the court's minimum when last set) and its leaf in the tree (0-23).
    /// In the General court the weight is all that counts of the judge's stakes (every court is below
    /// it) and the leaf is in the judge's record, so a judge of a child court needs no slot there.
    mapping(address => mapping(uint96 => uint256)) internal seats;
    /// @dev Per court, the armed draws not executed yet (the cases' draws, re-armed or not): while
    /// one waits, no judge counted in that court's pool may take its stake out of it.
    mapping(uint96 => uint256) internal pendingDraws;
    /// @dev Per case, the court whose pool its waiting draw reads (0: none waits).
    mapping(address => uint96) internal pendingDrawOf;
    uint256 internal constant LEAF_MASK = (1 << 24) - 1;
    uint256 internal constant COUNTS = 1 << 31;

    /// @dev Weight ranges cut out of a draw's line (drawn or excluded judges), sorted by start.
    struct Cuts {
        uint256[] start;
        uint256[] len;
        uint256 n;
        uint256 weight;
    }

    /// @dev A judge who can no longer serve is skipped; this many skips per draw at most.
    uint256 internal constant MAX_SKIPS = 32;

    /// @dev How many courts a packed list holds.
    function _count(uint256 list) internal pure returns (uint256 n) {
        while (list != 0) {
            n++;
            list >>= 8;
        }
    }

    /// @dev The `k`th court of a packed list.
    function _at(uint256 list, uint256 k) internal pure returns (uint96) {
        return uint96((list >> (8 * k)) & 0xff);
    }

    /// @dev A judge's stake in one court (what counts of it is the high half of the same slot).
    function _stakeIn(address judge, uint96 courtId) internal view returns (uint256) {
        return uint96(seats[judge][courtId] >> 32);
    }

    function _court(uint96 courtId) internal view returns (Court storage c) {
        if (courtId == 0 || courtId > courtCount) revert UnknownCourt(courtId);
        return courts[courtId];
    }

    /// @dev Whether `c` is `ancestor` or a court below it.
    function _isWithin(uint96 c, uint96 ancestor) internal view returns (bool) {
        for (; c != 0; c = courts[c].parent) {
            if (c == ancestor) return true;
        }
        return false;
    }

    function _createCourt(uint96 parent, string memory name, string memory policy, CourtConfig memory config)
        internal
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
        internal
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

    /// @dev Whether a stake of `judge`'s in `courtId` or a court below it counts in the pools: it
    /// reached its court's minimum when it was last set. The draw and the trees agree on it, so a
    /// minimum raised later binds a judge from its next stake change on, and never leaves weight in a
    /// tree that the draw would skip (issue #31: after 32 such skips a draw had reverted).
    function _eligibleIn(address judge, uint96 courtId) internal view returns (bool) {
        for (uint256 list = judges[judge].courts; list != 0; list >>= 8) {
            uint96 c = uint96(list & 0xff);
            if (seats[judge][c] & COUNTS != 0 && _isWithin(c, courtId)) return true;
        }
        return false;
    }

    /// @dev The General court's minimum judge stake.
    function _minJudgeStake() internal view returns (uint256) {
        return courts[GENERAL_COURT].config.minJudgeStake;
    }

    /// @dev All that counts of a judge's stakes (each court's stake while it reached the minimum):
    /// its weight in the General court.
    function _countedTotal(address judge) internal view returns (uint256 sum) {
        for (uint256 list = judges[judge].courts; list != 0; list >>= 8) {
            uint256 s = seats[judge][uint96(list & 0xff)];
            if (s & COUNTS != 0) sum += uint96(s >> 32);
        }
    }

    /// @dev A judge's leaf in a court's tree (0: none).
    function _leafIn(address judge, uint96 courtId) internal view returns (uint256) {
        return courtId == GENERAL_COURT ? judges[judge].generalLeaf : seats[judge][courtId] & LEAF_MASK;
    }

    /// @dev A judge's weight in a court's tree now.
    function _weightIn(address judge, uint96 courtId) internal view returns (uint256) {
        return courtId == GENERAL_COURT ? _countedTotal(judge) : seats[judge][courtId] >> 128;
    }
}
