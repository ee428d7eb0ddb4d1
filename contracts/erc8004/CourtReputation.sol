// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ICaseOutcomeHook} from "../interfaces/ICaseOutcomeHook.sol";
import {IAgentWalletIndex} from "../interfaces/IAgentWalletIndex.sol";
import {IERC8004Identity} from "../interfaces/IERC8004Identity.sol";
import {IERC8004Reputation} from "../interfaces/IERC8004Reputation.sol";
import {ICaseFiledHook} from "../interfaces/ICaseFiledHook.sol";
import {ICasePlaintiff} from "../interfaces/ICasePlaintiff.sol";
import {IRegistryFactory} from "../interfaces/IRegistryFactory.sol";

/// @title The court's voice in an ERC-8004 Reputation Registry.
/// @notice When a case ends, the court registry calls `recordOutcome` and this contract gives each
/// party that is an ERC-8004 agent one feedback entry: it is the feedback's clientAddress, so a
/// reader trusting the court asks `getSummary(agentId, [this], ...)`. Entries: a verdict is tag1
/// "verdict" with tag2 "won" (value 100) or "lost" (0); a default is tag1 "default" with tag2 "won"
/// (100: the plaintiff, whose claim nobody answered, not a verdict) or "defaulted" (0: the defendant
/// who never answered); a dismissal is tag1 "dismissed" (0). So a "verdict" summary counts only
/// cases judges decided: suing one's own sybil that never answers buys no verdict.
/// valueDecimals is 0 and the feedback URI names the case (`docket://cases/0x...`).
/// @dev A party's agent is fixed when the case is filed (`caseFiled`, from the factory): the one it
/// linked (`link`, for any ERC-8004 registry), else the agent whose agent wallet it is, when the
/// identity registry keeps that index (ours does); none for a party not on the case's record (a
/// dispute it never agreed to). Each feedback call gets bounded gas and its failure is caught, so
/// it never blocks the case's end, but it is kept on chain (`pendingFeedback`, counted in the
/// agent's card as `refused`) and anyone may `retryFeedback` it: an owner who made this contract its
/// operator to refuse a loss cannot shed it by revoking before its wins.
contract CourtReputation is ICaseOutcomeHook, ICaseFiledHook {
    /// @notice Gas each feedback call to the reputation registry gets.
    /// @return The gas.
    uint256 public constant FEEDBACK_GAS = 250_000;
    /// @notice The feedback value of a won case (a lost, defaulted or dismissed one is 0).
    /// @return The value (0 decimals).
    int128 public constant WON = 100;

    /// @notice Only the court registry reports outcomes.
    error OnlyRegistry();
    /// @notice Only the case factory reports filings.
    error OnlyFactory();
    /// @notice No feedback on this party for this case is waiting to be posted.
    /// @param caseAddr The case.
    /// @param party The party.
    error NoPendingFeedback(address caseAddr, address party);
    /// @notice The reputation registry refused the feedback again (or ran out of gas); it stays pending.
    /// @param caseAddr The case.
    /// @param party The party.
    /// @param agentId The party's agent.
    error FeedbackRefused(address caseAddr, address party, uint256 agentId);
    /// @notice The caller is neither the agent's owner nor its agent wallet.
    /// @param caller The caller.
    /// @param agentId The agent.
    error NotAgentController(address caller, uint256 agentId);

    /// @notice A party named the agent the court's feedback on it goes to.
    /// @param party The party.
    /// @param agentId The agent.
    event AgentLinked(address indexed party, uint256 indexed agentId);
    /// @notice A party removed its link; feedback goes to its agent wallet's agent, if any.
    /// @param party The party.
    event AgentUnlinked(address indexed party);
    /// @notice The court gave a party's agent feedback for a case.
    /// @param caseAddr The case.
    /// @param party The party.
    /// @param agentId The party's agent.
    /// @param outcome "won", "lost" (a verdict), "default-won", "defaulted" (a default) or "dismissed".
    event FeedbackPosted(address indexed caseAddr, address indexed party, uint256 indexed agentId, string outcome);
    /// @notice The reputation registry refused (or ran out of gas on) a party's feedback; the case
    /// ended anyway and the feedback waits in `pendingFeedback` for anyone's `retryFeedback`.
    /// @param caseAddr The case.
    /// @param party The party.
    /// @param agentId The party's agent.
    event FeedbackFailed(address indexed caseAddr, address indexed party, uint256 indexed agentId);
    /// @notice A case's parties' agents were fixed at filing (0: none, or not on record).
    /// @param caseAddr The case.
    /// @param plaintiffAgent The plaintiff's agent.
    /// @param defendantAgent The defendant's agent.
    event AgentsFixed(address indexed caseAddr, uint256 plaintiffAgent, uint256 defendantAgent);

    /// @notice What a feedback entry says, as kept while it waits for a retry.
    enum Entry {
        None,
        VerdictWon,
        VerdictLost,
        DefaultWon,
        Defaulted,
        Dismissed
    }

    /// @notice A feedback entry the reputation registry refused, waiting for `retryFeedback`.
    struct Pending {
        Entry entry;
        uint248 agentId;
    }

    /// @dev The agents a case's feedback goes to, fixed when it was filed.
    struct CaseAgents {
        bool pinned;
        uint256 plaintiffAgent;
        uint256 defendantAgent;
    }

    /// @dev A party's ERC-8004 record as docket shows it, read in one call.
    struct Summary {
        uint64 count;
        int128 value;
        uint8 decimals;
    }

    struct AgentCard {
        address addr;
        uint256 agentId;
        address owner;
        address wallet;
        string agentURI;
        /// @dev Every verdict entry ("won" 100, "lost" 0): the average is a win rate over cases judges decided.
        Summary verdicts;
        uint64 won;
        uint64 lost;
        /// @dev Cases it lost by never answering (tag1 "default", tag2 "defaulted").
        uint64 defaulted;
        uint64 dismissed;
        /// @dev Cases it won because the defendant never answered (tag1 "default", tag2 "won").
        uint64 defaultWins;
        /// @dev The court's entries on it the reputation registry refused and that wait for a retry.
        uint64 refused;
    }

    /// @notice The court registry, the only caller of `recordOutcome`.
    /// @return The CourtRegistry.
    address public immutable courtRegistry;
    /// @notice The ERC-8004 Identity Registry parties' agents live in.
    /// @return The IdentityRegistry.
    address public immutable identityRegistry;
    /// @notice The ERC-8004 Reputation Registry the feedback goes to.
    /// @return The ReputationRegistry.
    address public immutable reputationRegistry;
    /// @notice The agent a party linked with `link` (0: none); it counts only while the party still
    /// controls the agent (see `agentOf`).
    /// @return The agent id.
    mapping(address => uint256) public linkedAgent;
    /// @notice The feedback on `party` for `caseAddr` the reputation registry refused, waiting for
    /// anyone's `retryFeedback` (entry None: nothing waits).
    /// @return entry What the feedback says.
    /// @return agentId The agent it goes to.
    mapping(address => mapping(address => Pending)) public pendingFeedback;
    /// @notice How many of the court's entries on an agent wait for a retry.
    /// @return The count.
    mapping(uint256 => uint64) public refusedCount;
    mapping(address => CaseAgents) private caseAgents;

    constructor(address courtRegistry_, address identityRegistry_, address reputationRegistry_) {
        courtRegistry = courtRegistry_;
        identityRegistry = identityRegistry_;
        reputationRegistry = reputationRegistry_;
    }

    /// @notice Names the ERC-8004 agent the court's feedback on the caller goes to; the caller must
    /// be its owner or its agent wallet.
    /// @param agentId The agent.
    function link(uint256 agentId) external {
        if (!_controls(msg.sender, agentId)) revert NotAgentController(msg.sender, agentId);
        linkedAgent[msg.sender] = agentId;
        emit AgentLinked(msg.sender, agentId);
    }

    /// @notice Removes the caller's link; the court's feedback then goes to the agent whose wallet
    /// the caller is, if any.
    function unlink() external {
        delete linkedAgent[msg.sender];
        emit AgentUnlinked(msg.sender);
    }

    /// @inheritdoc ICaseFiledHook
    function caseFiled(
        address caseAddr,
        address plaintiff,
        address defendant,
        bool plaintiffOnRecord,
        bool defendantOnRecord
    ) external {
        if (msg.sender != IRegistryFactory(courtRegistry).factory()) revert OnlyFactory();
        uint256 p = plaintiffOnRecord ? agentOf(plaintiff) : 0;
        uint256 d = defendantOnRecord ? agentOf(defendant) : 0;
        caseAgents[caseAddr] = CaseAgents(true, p, d);
        emit AgentsFixed(caseAddr, p, d);
    }

    /// @inheritdoc ICaseOutcomeHook
    function recordOutcome(address caseAddr, address a, address b, uint8 kind) external {
        if (msg.sender != courtRegistry) revert OnlyRegistry();
        if (kind == 2) {
            _post(caseAddr, a, Entry.Dismissed);
            _post(caseAddr, b, Entry.Dismissed);
        } else if (kind == 1) {
            _post(caseAddr, a, Entry.DefaultWon);
            _post(caseAddr, b, Entry.Defaulted);
        } else {
            _post(caseAddr, a, Entry.VerdictWon);
            _post(caseAddr, b, Entry.VerdictLost);
        }
    }

    /// @notice Anyone posts again a feedback entry the reputation registry refused when the case
    /// ended (the agent fixed then); reverts, leaving it pending, if the registry refuses it again.
    /// @param caseAddr The case.
    /// @param party The party.
    function retryFeedback(address caseAddr, address party) external {
        Pending memory p = pendingFeedback[caseAddr][party];
        if (p.entry == Entry.None) revert NoPendingFeedback(caseAddr, party);
        delete pendingFeedback[caseAddr][party];
        refusedCount[p.agentId] -= 1;
        if (!_give(p.agentId, p.entry, caseAddr)) revert FeedbackRefused(caseAddr, party, p.agentId);
        emit FeedbackPosted(caseAddr, party, p.agentId, _outcome(p.entry));
    }

    /// @notice The agents a case's feedback goes to, fixed when it was filed.
    /// @param caseAddr The case.
    /// @return pinned False for a case filed before this reporter heard of filings (its agents are
    /// then looked up when it ends).
    /// @return plaintiffAgent The plaintiff's agent (0: none, or not on record).
    /// @return defendantAgent The defendant's agent (0: none, or not on record).
    function agentsOfCase(address caseAddr)
        external
        view
        returns (bool pinned, uint256 plaintiffAgent, uint256 defendantAgent)
    {
        CaseAgents storage ca = caseAgents[caseAddr];
        return (ca.pinned, ca.plaintiffAgent, ca.defendantAgent);
    }

    /// @notice The ERC-8004 agent the court's feedback on `party` goes to; 0 for none: the linked
    /// agent while the party controls it, else the agent whose wallet the party is.
    /// @param party The party.
    /// @return The agent id (0: none).
    function agentOf(address party) public view returns (uint256) {
        uint256 id = linkedAgent[party];
        if (id != 0 && _controls(party, id)) return id;
        try IAgentWalletIndex(identityRegistry).agentIdOf(party) returns (uint256 found) {
            return found;
        } catch {
            return 0;
        }
    }

    /// @notice Each address's agent (agentId 0: none) with its identity and the court's feedback.
    /// @param who The addresses.
    /// @return cards One card each, in order: agent, owner, wallet, URI, the verdicts' summary and counts.
    function describe(address[] calldata who) external view returns (AgentCard[] memory cards) {
        cards = new AgentCard[](who.length);
        for (uint256 i = 0; i < who.length; i++) {
            cards[i] = _card(who[i], agentOf(who[i]));
        }
    }

    // --------------------------------------------------------------- internal

    /// @dev One party's entry, to the agent fixed at filing (looked up now for a case filed before
    /// this reporter heard of filings); a refusal is kept for a retry.
    function _post(address caseAddr, address party, Entry entry) private {
        if (party == address(0)) return;
        uint256 agentId;
        CaseAgents storage ca = caseAgents[caseAddr];
        if (ca.pinned) {
            agentId = party == ICasePlaintiff(caseAddr).plaintiff() ? ca.plaintiffAgent : ca.defendantAgent;
        } else {
            agentId = agentOf(party);
        }
        if (agentId == 0 || agentId > type(uint248).max) return;
        if (_give(agentId, entry, caseAddr)) {
            emit FeedbackPosted(caseAddr, party, agentId, _outcome(entry));
        } else {
            pendingFeedback[caseAddr][party] = Pending(entry, uint248(agentId));
            refusedCount[agentId] += 1;
            emit FeedbackFailed(caseAddr, party, agentId);
        }
    }

    /// @dev Gives the entry with bounded gas; false if the registry refused it or ran out of gas.
    function _give(uint256 agentId, Entry entry, address caseAddr) private returns (bool) {
        (int128 value, string memory tag1, string memory tag2) = _tags(entry);
        string memory uri = string.concat("docket://cases/", _hex(caseAddr));
        try IERC8004Reputation(reputationRegistry).giveFeedback{gas: FEEDBACK_GAS}(
            agentId, value, 0, tag1, tag2, "", uri, bytes32(0)
        ) {
            return true;
        } catch {
            return false;
        }
    }

    function _tags(Entry entry) private pure returns (int128 value, string memory tag1, string memory tag2) {
        if (entry == Entry.VerdictWon) return (WON, "verdict", "won");
        if (entry == Entry.VerdictLost) return (0, "verdict", "lost");
        if (entry == Entry.DefaultWon) return (WON, "default", "won");
        if (entry == Entry.Defaulted) return (0, "default", "defaulted");
        return (0, "dismissed", "");
    }

    /// @dev The outcome word the events carry: "won", "lost", "default-won", "defaulted" or "dismissed".
    function _outcome(Entry entry) private pure returns (string memory) {
        if (entry == Entry.VerdictWon) return "won";
        if (entry == Entry.VerdictLost) return "lost";
        if (entry == Entry.DefaultWon) return "default-won";
        if (entry == Entry.Defaulted) return "defaulted";
        return "dismissed";
    }

    function _card(address who, uint256 agentId) private view returns (AgentCard memory c) {
        c.addr = who;
        if (agentId == 0) return c;
        c.agentId = agentId;
        IERC8004Identity id = IERC8004Identity(identityRegistry);
        try id.ownerOf(agentId) returns (address o) {
            c.owner = o;
        } catch {}
        try id.getAgentWallet(agentId) returns (address w) {
            c.wallet = w;
        } catch {}
        try id.tokenURI(agentId) returns (string memory u) {
            c.agentURI = u;
        } catch {}
        c.verdicts = _summary(agentId, "verdict", "");
        c.won = _summary(agentId, "verdict", "won").count;
        c.lost = _summary(agentId, "verdict", "lost").count;
        c.defaulted = _summary(agentId, "default", "defaulted").count;
        c.dismissed = _summary(agentId, "dismissed", "").count;
        c.defaultWins = _summary(agentId, "default", "won").count;
        c.refused = refusedCount[agentId];
    }

    function _summary(uint256 agentId, string memory tag1, string memory tag2) private view returns (Summary memory s) {
        address[] memory court = new address[](1);
        court[0] = address(this);
        try IERC8004Reputation(reputationRegistry).getSummary(agentId, court, tag1, tag2) returns (
            uint64 count, int128 value, uint8 decimals
        ) {
            s = Summary(count, value, decimals);
        } catch {}
    }

    function _controls(address who, uint256 agentId) private view returns (bool) {
        IERC8004Identity id = IERC8004Identity(identityRegistry);
        try id.ownerOf(agentId) returns (address o) {
            if (o == who) return true;
        } catch {
            return false;
        }
        try id.getAgentWallet(agentId) returns (address w) {
            return w == who;
        } catch {
            return false;
        }
    }

    /// @dev Lower-case 0x-hex of an address.
    function _hex(address a) private pure returns (string memory) {
        bytes memory out = new bytes(42);
        bytes16 digits = "0123456789abcdef";
        out[0] = "0";
        out[1] = "x";
        uint160 v = uint160(a);
        for (uint256 i = 41; i > 1; i--) {
            out[i] = digits[v & 0xf];
            v >>= 4;
        }
        return string(out);
    }
}
