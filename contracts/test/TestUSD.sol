// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title The dev chain's test stablecoin: an ERC-20 with EIP-3009 `transferWithAuthorization`.
/// @notice What a stock x402 client pays the filing fee with on the dev chain (the "exact" scheme
/// on EVM: the payer signs an EIP-712 authorization; the court's factory submits it while filing).
/// Six decimals, as USDC, and, as USDC, it keeps only whether a nonce is used: the court needs no
/// more than any EIP-3009 token offers. A faucet the deployer mints from, under a name nobody takes
/// for real money. Never deploy it anywhere with value.
contract TestUSD {
    /// @notice ERC-20: the token's name (also its EIP-712 domain name).
    /// @return The name.
    string public constant name = "Docket Test USD";
    /// @notice ERC-20: the token's symbol.
    /// @return The symbol.
    string public constant symbol = "dUSD";
    /// @notice The EIP-712 domain version (x402 requirements carry name and version in `extra`).
    /// @return The version.
    string public constant version = "1";
    /// @notice ERC-20: the token's decimals (six, as USDC).
    /// @return The decimals.
    uint8 public constant decimals = 6;

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    /// @notice EIP-3009: the EIP-712 type hash of `TransferWithAuthorization`.
    /// @return The type hash.
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @dev secp256k1n / 2: a larger `s` is the malleable twin of a valid signature.
    uint256 private constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @notice Only the minter (the deployer) mints.
    error OnlyMinter();
    /// @notice The payer holds too little.
    /// @param balance What it holds.
    /// @param needed What the transfer needs.
    error InsufficientBalance(uint256 balance, uint256 needed);
    /// @notice The caller's allowance from the payer is too small.
    /// @param allowance The allowance.
    /// @param needed What the transfer needs.
    error InsufficientAllowance(uint256 allowance, uint256 needed);
    /// @notice Tokens may not go to the zero address.
    error InvalidRecipient();
    /// @notice The authorization is not valid yet.
    /// @param validAfter It is valid only after this time.
    error AuthorizationNotYetValid(uint256 validAfter);
    /// @notice The authorization has expired.
    /// @param validBefore It was valid only before this time.
    error AuthorizationExpired(uint256 validBefore);
    /// @notice The authorization's nonce is used already.
    /// @param authorizer The payer.
    /// @param nonce The nonce.
    error AuthorizationAlreadyUsed(address authorizer, bytes32 nonce);
    /// @notice The signature is not the payer's (or is the malleable twin of one).
    error InvalidSignature();

    /// @notice ERC-20: tokens moved (from zero: minted).
    /// @param from The payer (zero when minted).
    /// @param to The payee.
    /// @param value The amount.
    event Transfer(address indexed from, address indexed to, uint256 value);
    /// @notice ERC-20: an owner set a spender's allowance.
    /// @param owner The owner.
    /// @param spender The spender.
    /// @param value The allowance now.
    event Approval(address indexed owner, address indexed spender, uint256 value);
    /// @notice EIP-3009: an authorization was used.
    /// @param authorizer The payer who signed it.
    /// @param nonce Its nonce.
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);

    /// @notice Who deployed the token, the only one who may mint.
    /// @return The minter.
    address public immutable minter;
    /// @notice ERC-20: every token minted.
    /// @return The supply.
    uint256 public totalSupply;
    /// @notice ERC-20: an address's balance.
    /// @return The balance.
    mapping(address => uint256) public balanceOf;
    /// @notice ERC-20: what a spender may still take from an owner (owner, then spender).
    /// @return The allowance.
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => mapping(bytes32 => bool)) private used;

    constructor() {
        minter = msg.sender;
    }

    /// @notice Creates `value` tokens for `to`; only the minter.
    /// @param to The recipient (not zero).
    /// @param value The amount.
    function mint(address to, uint256 value) external {
        if (msg.sender != minter) revert OnlyMinter();
        if (to == address(0)) revert InvalidRecipient();
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    /// @notice ERC-20: moves `value` of the caller's tokens to `to`.
    /// @param to The payee (not zero).
    /// @param value The amount.
    /// @return True (a failure reverts).
    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @notice ERC-20: lets `spender` take up to `value` of the caller's tokens.
    /// @param spender The spender.
    /// @param value The allowance.
    /// @return True.
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @notice ERC-20: moves `value` of `from`'s tokens to `to` out of the caller's allowance (an unlimited allowance, the largest uint256, is never spent).
    /// @param from The payer.
    /// @param to The payee (not zero).
    /// @param value The amount.
    /// @return True (a failure reverts).
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(allowed, value);
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// @notice EIP-3009: moves `value` from `from` to `to` on `from`'s signed authorization, once
    /// per (from, nonce), between `validAfter` and `validBefore` (exclusive). Anyone may submit it.
    /// @param from The payer, who signed.
    /// @param to The payee.
    /// @param value The amount.
    /// @param validAfter Valid only after this time (unix seconds).
    /// @param validBefore Valid only before this time (unix seconds).
    /// @param nonce The payer's unique nonce for this authorization.
    /// @param v The signature's recovery id.
    /// @param r The signature's r.
    /// @param s The signature's s (lower half only).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid(validAfter);
        if (block.timestamp >= validBefore) revert AuthorizationExpired(validBefore);
        if (used[from][nonce]) revert AuthorizationAlreadyUsed(from, nonce);
        if (to == address(0)) revert InvalidRecipient();
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                DOMAIN_SEPARATOR(),
                keccak256(abi.encode(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce))
            )
        );
        if (uint256(s) > HALF_N) revert InvalidSignature();
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0) || signer != from) revert InvalidSignature();
        used[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    /// @notice EIP-3009: whether `authorizer` has used `nonce`.
    /// @param authorizer The payer.
    /// @param nonce The nonce.
    /// @return True once used.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return used[authorizer][nonce];
    }

    /// @notice The EIP-712 domain authorizations are signed in (name, version, this chain, this token).
    /// @return The domain separator.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this))
        );
    }

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert InvalidRecipient();
        uint256 balance = balanceOf[from];
        if (balance < value) revert InsufficientBalance(balance, value);
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
