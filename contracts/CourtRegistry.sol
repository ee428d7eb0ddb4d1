// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {JudgeResult, ICourtRegistry} from "./ICourt.sol";
import {ICaseOutcomeHook} from "./IERC8004.sol";
import {SortitionTree} from "./SortitionTree.sol";

/// @title Agents, judges and their records.
/// @notice Agents register themselves; judges stake the chain's native coin to join the pool.
/// Only case contracts created by the factory may touch judge stakes and records.
/// Draws are stake-weighted: a judge's chance is its stake over the pool's, read from a
/// checkpointed sum tree as of the block a case's draw was armed (see SortitionTree).
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
    error HookHasNoCode(address hook);

    event AgentRegistered(address indexed agent, uint256 indexed agentId, string name, string metadataURI);
    event AgentUpdated(address indexed agent, uint256 indexed agentId, string name, string metadataURI);
    event JudgeStaked(address indexed judge, uint256 amount, uint256 totalStake);
    event JudgeUnstaked(address indexed judge, uint256 amount);
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

    struct Judge {
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

    int64 public constant REPUTATION_WIN = 10;
    int64 public constant REPUTATION_LOSS = -5;
    int64 public constant REPUTATION_NO_SHOW = -20;
    /// @notice Gas the outcome hook gets at the end of every case (CourtReputation: two ERC-8004 feedbacks).
    uint256 public constant OUTCOME_HOOK_GAS = 600_000;

    address public owner;
    address public factory;
    uint256 public minJudgeStake;
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
    /// @dev Every judge's draw weight (its stake while eligible, else 0), with history.
    SortitionTree.Tree private sortition;

    /// @dev Weight ranges cut out of a draw's line (drawn or excluded judges), sorted by start.
    struct Cuts {
        uint256[] start;
        uint256[] len;
        uint256 n;
        uint256 weight;
    }

    /// @dev A judge who can no longer serve is skipped; this many skips per draw at most.
    uint256 private constant MAX_SKIPS = 32;

    constructor(uint256 minJudgeStake_, uint16 slashBps_) {
        if (minJudgeStake_ == 0 || slashBps_ > 10_000) revert InvalidParameter();
        owner = msg.sender;
        minJudgeStake = minJudgeStake_;
        slashBps = slashBps_;
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

    // ------------------------------------------------------------------ judges

    /// @notice Adds the sent value to the caller's judge stake; the total must reach the minimum.
    function stakeAsJudge() external payable {
        Judge storage j = judges[msg.sender];
        uint256 total = j.stake + msg.value;
        if (msg.value == 0 || total < minJudgeStake) revert StakeBelowMinimum(minJudgeStake, total);
        j.stake = total;
        totalJudgeStake += msg.value;
        if (judgeIndexPlusOne[msg.sender] == 0) {
            judgeList.push(msg.sender);
            judgeIndexPlusOne[msg.sender] = judgeList.length;
            j.stakedAt = uint64(block.timestamp);
        }
        _syncWeight(msg.sender);
        emit JudgeStaked(msg.sender, msg.value, total);
    }

    /// @notice Withdraws the caller's whole stake and leaves the pool; refused while serving.
    function unstake() external {
        Judge storage j = judges[msg.sender];
        uint256 amount = j.stake;
        if (amount == 0) revert NothingStaked();
        if (j.activeCases > 0) revert JudgeServingOnOpenCase(j.activeCases);
        j.stake = 0;
        totalJudgeStake -= amount;
        _leavePool(msg.sender);
        _syncWeight(msg.sender);
        emit JudgeUnstaked(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    function isEligibleJudge(address judge) public view returns (bool) {
        return judgeIndexPlusOne[judge] != 0 && judges[judge].stake >= minJudgeStake;
    }

    /// @notice Every judge whose stake is at least the minimum.
    function eligibleJudges() external view returns (address[] memory out) {
        out = new address[](judgeList.length);
        uint256 n = 0;
        for (uint256 i = 0; i < judgeList.length; i++) {
            if (judges[judgeList[i]].stake >= minJudgeStake) out[n++] = judgeList[i];
        }
        assembly {
            mstore(out, n)
        }
    }

    /// @notice Draws `size` distinct judges, each with a chance proportional to its stake as it
    /// was at the end of block `atBlock`, never one of `excluded`, and only judges still eligible
    /// now. Deterministic in (seed, atBlock, pool history): the caller chooses none of them.
    /// @dev Sampling without replacement: every drawn or excluded judge's weight range is cut out
    /// of the line before the next point is drawn, so no draw is wasted on a repeat.
    function drawPanel(bytes32 seed, uint64 atBlock, uint256 size, address[] calldata excluded)
        external
        view
        returns (address[] memory chosen)
    {
        chosen = new address[](size);
        uint256 room = excluded.length + size + MAX_SKIPS;
        Cuts memory cuts = Cuts(new uint256[](room), new uint256[](room), 0, 0);
        for (uint256 i = 0; i < excluded.length; i++) {
            uint256 leaf = sortition.leafOf[excluded[i]];
            if (leaf == 0) continue;
            (uint256 start, uint256 w) = _leafRange(leaf, atBlock);
            if (w > 0 && !_isCut(cuts, start)) _cut(cuts, start, w);
        }
        uint256 total = sortition.totalAt(atBlock);
        uint256 got = 0;
        for (uint256 nonce = 0; got < size; nonce++) {
            if (total <= cuts.weight || cuts.n == cuts.start.length) revert NotEnoughJudges(got, size);
            address judge = _drawOne(cuts, uint256(keccak256(abi.encode(seed, nonce))), total, atBlock);
            // Left the pool or fell below the minimum since: a judge can only take itself out.
            if (isEligibleJudge(judge)) chosen[got++] = judge;
        }
    }

    /// @notice A judge's draw weight at the end of block `atBlock` and the pool's total then.
    function weightAt(address judge, uint64 atBlock) external view returns (uint256 weight, uint256 total) {
        uint256 leaf = sortition.leafOf[judge];
        if (leaf != 0) (, weight) = _leafRange(leaf, atBlock);
        total = sortition.totalAt(atBlock);
    }

    // --------------------------------------------------------- case callbacks

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

    /// @notice Receives a case's court fee: `each` to every listed judge's stake, the rest to the treasury.
    function creditRewards(address[] calldata rewarded, uint256 each) external payable onlyCase {
        uint256 paid = each * rewarded.length;
        require(paid <= msg.value, "CourtRegistry: rewards exceed the fee sent");
        for (uint256 i = 0; i < rewarded.length; i++) {
            Judge storage j = judges[rewarded[i]];
            j.stake += each;
            j.rewards += each;
            _syncWeight(rewarded[i]);
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

    /// @notice Sets (or, with zero, removes) the contract told how each case ends. An address with
    /// no code is refused: a call to it would revert outside any `try` and end no case.
    function setOutcomeHook(address hook) external {
        if (msg.sender != owner) revert OnlyOwner();
        if (hook != address(0) && hook.code.length == 0) revert HookHasNoCode(hook);
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

    /// @notice Every judge in the pool (staked and not unstaked), eligible or not.
    function getJudgePool() external view returns (uint256 minimumStake, JudgeView[] memory pool) {
        minimumStake = minJudgeStake;
        pool = new JudgeView[](judgeList.length);
        for (uint256 i = 0; i < judgeList.length; i++) {
            pool[i] = getJudge(judgeList[i]);
        }
    }

    function getOverview() external view returns (Overview memory o) {
        o.agentCount = agentList.length;
        o.judgeCount = judgeList.length;
        for (uint256 i = 0; i < judgeList.length; i++) {
            if (judges[judgeList[i]].stake >= minJudgeStake) o.eligibleJudgeCount++;
        }
        o.totalJudgeStake = totalJudgeStake;
        o.treasury = treasury;
        o.minJudgeStake = minJudgeStake;
        o.slashBps = slashBps;
    }

    function agentCount() external view returns (uint256) {
        return agentList.length;
    }

    // ---------------------------------------------------------------- internal

    /// @dev The hook runs with a fixed gas allowance and its failure is only logged, so it can never
    /// block a case's end. The allowance must be there in full: otherwise a wallet's gas estimate
    /// could settle on a limit where the hook silently runs out. A hook with no code (yet, or any
    /// more) is skipped: Solidity's high-level call checks the code before the `try` can catch.
    function _tellOutcomeHook(address a, address b, uint8 kind) private {
        address hook = outcomeHook;
        if (hook == address(0)) return;
        if (hook.code.length == 0) {
            emit OutcomeHookFailed(msg.sender);
            return;
        }
        uint256 needed = OUTCOME_HOOK_GAS + OUTCOME_HOOK_GAS / 63 + 10_000;
        if (gasleft() < needed) revert NotEnoughGasForOutcomeHook(needed);
        try ICaseOutcomeHook(hook).recordOutcome{gas: OUTCOME_HOOK_GAS}(msg.sender, a, b, kind) {}
        catch {
            emit OutcomeHookFailed(msg.sender);
        }
    }

    function _slash(address judge, Judge storage j) private {
        uint256 amount = (j.stake * slashBps) / 10_000;
        if (amount == 0) return;
        j.stake -= amount;
        j.slashed += amount;
        totalJudgeStake -= amount;
        treasury += amount;
        _syncWeight(judge);
        emit JudgeSlashed(judge, msg.sender, amount);
    }

    /// @dev A judge's weight in draws: its stake while in the pool at or above the minimum.
    function _syncWeight(address judge) private {
        sortition.setWeight(judge, isEligibleJudge(judge) ? judges[judge].stake : 0);
    }

    function _leafRange(uint256 leaf, uint64 atBlock) private view returns (uint256 start, uint256 weight) {
        start = sortition.prefixAt(leaf - 1, atBlock);
        weight = sortition.prefixAt(leaf, atBlock) - start;
    }

    /// @dev One point on the line less the cuts, mapped back onto the whole line; its judge's
    /// range is cut so no later point can land on it.
    function _drawOne(Cuts memory cuts, uint256 rnd, uint256 total, uint64 atBlock) private view returns (address) {
        uint256 p = rnd % (total - cuts.weight);
        for (uint256 k = 0; k < cuts.n && p >= cuts.start[k]; k++) {
            p += cuts.len[k];
        }
        (uint256 leaf, uint256 start) = sortition.find(p, atBlock);
        _cut(cuts, start, sortition.prefixAt(leaf, atBlock) - start);
        return sortition.ownerOf[leaf];
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
