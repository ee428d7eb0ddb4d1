// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAgentWalletIndex, MetadataEntry} from "./IERC8004.sol";

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @title ERC-8004 Identity Registry.
/// @notice Each agent is an ERC-721 token: its id is the agentId, its tokenURI the agentURI (the
/// agent's registration file), its owner the agent's owner. On-chain metadata is free-form key to
/// bytes, except the reserved `agentWallet`: the owner's address at registration, changed only with
/// the new wallet's EIP-712 (or ERC-1271) consent, cleared on transfer.
/// @dev Beyond the standard, `agentIdOf(wallet)` indexes agents by their agent wallet (the latest
/// agent to take that wallet), so a contract or a gateway can find an address's agent in one call.
contract IdentityRegistry is IAgentWalletIndex {
    string public constant name = "ERC-8004 Agent Identity";
    string public constant symbol = "AGENT";
    string public constant AGENT_WALLET_KEY = "agentWallet";
    /// @notice The wallet's consent names its current `walletNonce`, so each consent is used at most
    /// once and any later claim of the wallet (a consent used, its own registration) voids the rest.
    bytes32 public constant AGENT_WALLET_TYPEHASH = keccak256(
        "AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 nonce,uint256 deadline)"
    );
    bytes32 public immutable DOMAIN_SEPARATOR;

    error AgentNotFound(uint256 agentId);
    error NotAuthorized(address caller, uint256 agentId);
    error ReservedMetadataKey(string key);
    error InvalidRecipient(address to);
    error WrongOwner(address from);
    error SignatureExpired(uint256 deadline);
    error InvalidWalletSignature();
    error UnsafeRecipient(address to);

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);
    event MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue);

    /// @notice Agents minted so far; ids run from 1 to this.
    uint256 public totalAgents;

    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) private approvals;
    mapping(address => mapping(address => bool)) private operators;
    mapping(uint256 => string) private uris;
    mapping(uint256 => mapping(string => bytes)) private metadata;
    mapping(uint256 => address) private wallets;
    mapping(address => uint256) private agentOfWallet;
    /// @notice The nonce a wallet's next consent must name; it grows each time the wallet is claimed.
    mapping(address => uint256) public walletNonce;

    constructor() {
        DOMAIN_SEPARATOR = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(name)),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
    }

    modifier onlyController(uint256 agentId) {
        if (!_isController(msg.sender, agentId)) revert NotAuthorized(msg.sender, agentId);
        _;
    }

    // ------------------------------------------------------------- ERC-8004

    function register(string calldata agentURI, MetadataEntry[] calldata entries) external returns (uint256 agentId) {
        agentId = _mint(agentURI);
        for (uint256 i = 0; i < entries.length; i++) {
            _setMetadata(agentId, entries[i].metadataKey, entries[i].metadataValue);
        }
        emit Registered(agentId, agentURI, msg.sender);
    }

    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = _mint(agentURI);
        emit Registered(agentId, agentURI, msg.sender);
    }

    function register() external returns (uint256 agentId) {
        agentId = _mint("");
        emit Registered(agentId, "", msg.sender);
    }

    function setAgentURI(uint256 agentId, string calldata newURI) external onlyController(agentId) {
        uris[agentId] = newURI;
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue)
        external
        onlyController(agentId)
    {
        _setMetadata(agentId, metadataKey, metadataValue);
    }

    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        _requireMinted(agentId);
        if (_isWalletKey(metadataKey)) {
            address w = wallets[agentId];
            return w == address(0) ? bytes("") : abi.encodePacked(w);
        }
        return metadata[agentId][metadataKey];
    }

    /// @notice Points the agent's wallet at `newWallet`, which consents by signing the EIP-712
    /// `AgentWalletSet(agentId, newWallet, owner, nonce, deadline)` with its current `walletNonce`
    /// (a contract wallet through ERC-1271). The wallet leaves any other agent that had it.
    /// @param agentId The agent.
    /// @param newWallet The wallet.
    /// @param deadline The consent's deadline.
    /// @param signature The wallet's signature (65 bytes r ‖ s ‖ v, or what its ERC-1271 accepts).
    function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes calldata signature)
        external
        onlyController(agentId)
    {
        if (block.timestamp > deadline) revert SignatureExpired(deadline);
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                DOMAIN_SEPARATOR,
                keccak256(
                    abi.encode(
                        AGENT_WALLET_TYPEHASH, agentId, newWallet, owners[agentId], walletNonce[newWallet], deadline
                    )
                )
            )
        );
        if (!_signedBy(newWallet, digest, signature)) revert InvalidWalletSignature();
        _setWallet(agentId, newWallet);
    }

    function unsetAgentWallet(uint256 agentId) external onlyController(agentId) {
        _setWallet(agentId, address(0));
    }

    function getAgentWallet(uint256 agentId) external view returns (address) {
        _requireMinted(agentId);
        return wallets[agentId];
    }

    /// @inheritdoc IAgentWalletIndex
    function agentIdOf(address wallet) external view returns (uint256) {
        return wallet == address(0) ? 0 : agentOfWallet[wallet];
    }

    // -------------------------------------------------------------- ERC-721

    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert InvalidRecipient(owner);
        return balances[owner];
    }

    function ownerOf(uint256 agentId) public view returns (address) {
        return _requireMinted(agentId);
    }

    function tokenURI(uint256 agentId) external view returns (string memory) {
        _requireMinted(agentId);
        return uris[agentId];
    }

    function approve(address to, uint256 agentId) external {
        address owner = _requireMinted(agentId);
        if (msg.sender != owner && !operators[owner][msg.sender]) revert NotAuthorized(msg.sender, agentId);
        approvals[agentId] = to;
        emit Approval(owner, to, agentId);
    }

    function getApproved(uint256 agentId) external view returns (address) {
        _requireMinted(agentId);
        return approvals[agentId];
    }

    function setApprovalForAll(address operator, bool approved) external {
        operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return operators[owner][operator];
    }

    function transferFrom(address from, address to, uint256 agentId) public {
        if (!_isController(msg.sender, agentId)) revert NotAuthorized(msg.sender, agentId);
        if (owners[agentId] != from) revert WrongOwner(from);
        if (to == address(0)) revert InvalidRecipient(to);
        delete approvals[agentId];
        balances[from] -= 1;
        balances[to] += 1;
        owners[agentId] = to;
        // The wallet was the old owner's choice: the new owner must set (and prove) its own.
        _setWallet(agentId, address(0));
        emit Transfer(from, to, agentId);
    }

    function safeTransferFrom(address from, address to, uint256 agentId) external {
        safeTransferFrom(from, to, agentId, "");
    }

    function safeTransferFrom(address from, address to, uint256 agentId, bytes memory data) public {
        transferFrom(from, to, agentId);
        if (to.code.length > 0) {
            try IERC721Receiver(to).onERC721Received(msg.sender, from, agentId, data) returns (bytes4 ret) {
                if (ret != IERC721Receiver.onERC721Received.selector) revert UnsafeRecipient(to);
            } catch {
                revert UnsafeRecipient(to);
            }
        }
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f; // ERC-165, ERC-721, metadata
    }

    // ------------------------------------------------------------- internal

    function _mint(string memory agentURI) private returns (uint256 agentId) {
        agentId = ++totalAgents;
        owners[agentId] = msg.sender;
        balances[msg.sender] += 1;
        uris[agentId] = agentURI;
        emit Transfer(address(0), msg.sender, agentId);
        _setWallet(agentId, msg.sender);
    }

    function _setMetadata(uint256 agentId, string calldata key, bytes calldata value) private {
        if (_isWalletKey(key)) revert ReservedMetadataKey(key);
        metadata[agentId][key] = value;
        emit MetadataSet(agentId, key, key, value);
    }

    /// @dev A wallet belongs to one agent at a time: claiming it (a consent, or registering an agent
    /// from it) takes it from the agent that had it and spends its nonce, voiding every consent it
    /// signed before. The index points at the agent that has each wallet.
    function _setWallet(uint256 agentId, address wallet) private {
        address old = wallets[agentId];
        if (old != address(0) && agentOfWallet[old] == agentId) delete agentOfWallet[old];
        if (wallet != address(0)) {
            uint256 previous = agentOfWallet[wallet];
            if (previous != 0 && previous != agentId) _writeWallet(previous, address(0));
            agentOfWallet[wallet] = agentId;
            walletNonce[wallet] += 1;
        }
        _writeWallet(agentId, wallet);
    }

    function _writeWallet(uint256 agentId, address wallet) private {
        wallets[agentId] = wallet;
        emit MetadataSet(
            agentId,
            AGENT_WALLET_KEY,
            AGENT_WALLET_KEY,
            wallet == address(0) ? bytes("") : abi.encodePacked(wallet)
        );
    }

    function _requireMinted(uint256 agentId) private view returns (address owner) {
        owner = owners[agentId];
        if (owner == address(0)) revert AgentNotFound(agentId);
    }

    /// @dev The owner, the token's approved address, or one of the owner's operators.
    function _isController(address who, uint256 agentId) private view returns (bool) {
        address owner = _requireMinted(agentId);
        return who == owner || approvals[agentId] == who || operators[owner][who];
    }

    function _isWalletKey(string calldata key) private pure returns (bool) {
        return keccak256(bytes(key)) == keccak256(bytes(AGENT_WALLET_KEY));
    }

    function _signedBy(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer == address(0)) return false;
        if (signer.code.length > 0) {
            try IERC1271(signer).isValidSignature(digest, signature) returns (bytes4 magic) {
                return magic == IERC1271.isValidSignature.selector;
            } catch {
                return false;
            }
        }
        if (signature.length != 65) return false;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        // Only the lower half of s: a signature and its malleated twin are one consent, not two.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return false;
        return ecrecover(digest, v, r, s) == signer;
    }
}
